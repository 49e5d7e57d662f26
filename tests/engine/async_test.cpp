// Async ops under the controlled scheduler: the thread is free while the op is in flight, and
// the op completes only through its handle.
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <thread>

#include "runtime/engine/errors.hpp"
#include "tests/engine/controlled_rig.hpp"

namespace ordo::engine::testing {
namespace {

class EngineAsync : public ::testing::Test {
 protected:
  EngineAsync() { rig.engine.declare_comm(dag::Communicator{"world", std::nullopt}); }

  // An async allreduce writing `var` whose handle lands in `handle`.
  OpHandle submit_keeping(VarHandle var, std::optional<AsyncDone>& handle) {
    return rig.engine.submit_async(desc("allreduce", var),
                                 [&handle](const AsyncDone& done) { handle = done; });
  }

  static OpDesc desc(const std::string& name, VarHandle var) {
    OpDesc op{name, {}, {var}};
    op.kind = dag::OpKind::async_collective;
    op.collective = collective(dag::CollectiveKind::allreduce, 0, 1, 8);
    return op;
  }

  ControlledRig rig{one_pool(1)};
};

TEST_F(EngineAsync, InFlightOpDoesNotHoldItsThread) {
  const VarHandle v = rig.var("v");
  std::optional<AsyncDone> handle;
  const OpHandle reduce = submit_keeping(v, handle);
  const OpHandle other = rig.op("other", {}, {});
  rig.start(reduce);
  ASSERT_TRUE(handle.has_value());
  EXPECT_TRUE(rig.startable(other));
  rig.run(other);
  EXPECT_FALSE(rig.engine.all_done());
  (*handle)();
  rig.complete(reduce);
  EXPECT_TRUE(rig.engine.all_done());
}

TEST_F(EngineAsync, CompleteIsIllegalUntilTheHandleFires) {
  const VarHandle v = rig.var("v");
  std::optional<AsyncDone> handle;
  const OpHandle reduce = submit_keeping(v, handle);
  const OpHandle reader = rig.op("reader", {v}, {});
  rig.start(reduce);
  EXPECT_FALSE(rig.completable(reduce));
  EXPECT_EQ(message_of<ScheduleError>([&] { rig.complete(reduce); }),
            "cannot complete async op 'allreduce' (slot 0 gen 0): it has not invoked its "
            "completion handle yet");
  (*handle)();
  EXPECT_FALSE(rig.startable(reader));  // the handle fired; the completion is not applied yet
  rig.complete(reduce);
  EXPECT_TRUE(rig.startable(reader));
}

TEST_F(EngineAsync, HandleInvokedInsideTheFunctionMakesCompleteLegalAtOnce) {
  const VarHandle v = rig.var("v");
  const OpHandle reduce =
      rig.engine.submit_async(desc("inline", v), [](const AsyncDone& done) { done(); });
  rig.start(reduce);
  EXPECT_TRUE(rig.completable(reduce));
  rig.complete(reduce);
  EXPECT_TRUE(rig.engine.can_read(v));
}

TEST_F(EngineAsync, SecondInvocationIsAUsageError) {
  const VarHandle v = rig.var("v");
  std::optional<AsyncDone> handle;
  const OpHandle reduce = submit_keeping(v, handle);
  rig.start(reduce);
  const AsyncDone copy = *handle;
  copy();
  EXPECT_EQ(message_of<UsageError>([&] { (*handle)(); }),
            "async op 'allreduce' (slot 0 gen 0): completion handle invoked twice; an async op "
            "completes exactly once");
  rig.complete(reduce);
  EXPECT_NO_THROW(rig.engine.wait_to_read(v));
}

TEST_F(EngineAsync, EmptyHandleIsAUsageError) {
  const AsyncDone empty;
  EXPECT_FALSE(static_cast<bool>(empty));
  EXPECT_THROW(empty(), UsageError);
}

TEST_F(EngineAsync, DroppedHandleFailsTheOp) {
  const VarHandle v = rig.var("v");
  const OpHandle reduce = rig.engine.submit_async(desc("forgetful", v), [](const AsyncDone&) {});
  rig.start(reduce);
  ASSERT_TRUE(rig.completable(reduce));
  rig.complete(reduce);
  EXPECT_EQ(message_of<AsyncHandleDropped>([&] { rig.engine.wait_to_read(v); }),
            "async op 'forgetful' (slot 0 gen 0) dropped its completion handle without invoking "
            "it");
}

TEST_F(EngineAsync, HandleCarryingAnErrorPoisonsTheWrites) {
  const VarHandle v = rig.var("v");
  std::optional<AsyncDone> handle;
  const OpHandle reduce = submit_keeping(v, handle);
  rig.start(reduce);
  (*handle)(std::make_exception_ptr(std::runtime_error("link down")));
  rig.complete(reduce);
  EXPECT_EQ(message_of<std::runtime_error>([&] { rig.engine.wait_to_read(v); }), "link down");
}

TEST_F(EngineAsync, FunctionThrowingBeforeTheHandleFiresFailsTheOp) {
  const VarHandle v = rig.var("v");
  const OpHandle reduce = rig.engine.submit_async(
      desc("throws", v), [](const AsyncDone&) { throw std::runtime_error("no buffer"); });
  rig.start(reduce);
  rig.complete(reduce);
  EXPECT_EQ(message_of<std::runtime_error>([&] { rig.engine.wait_to_read(v); }), "no buffer");
}

TEST_F(EngineAsync, HandleMayFireOnAnotherThread) {
  const VarHandle v = rig.var("v");
  std::optional<AsyncDone> handle;
  const OpHandle reduce = submit_keeping(v, handle);
  rig.start(reduce);
  std::thread completer([done = *handle] { done(); });
  completer.join();
  rig.complete(reduce);
  EXPECT_TRUE(rig.engine.all_done());
}

TEST_F(EngineAsync, SkippedAsyncOpNeverRunsItsFunction) {
  const VarHandle v = rig.var("v");
  rig.failing_op("bad", "boom", {}, {v});
  bool ran = false;
  OpDesc reduce_desc = desc("reduce", rig.var("out"));
  reduce_desc.reads = {v};
  rig.engine.submit_async(reduce_desc, [&ran](const AsyncDone& done) {
    ran = true;
    done();
  });
  rig.run_all();
  EXPECT_FALSE(ran);
  EXPECT_TRUE(rig.engine.all_done());
}

}  // namespace
}  // namespace ordo::engine::testing

namespace ordo::engine::testing {
namespace {

// A worker claims an op under the engine lock and runs its function outside it, so a collective
// op's claim and the issue of its call are two decisions (docs/semantics.md, S3): between them a
// second worker of the same pool can claim the next collective op and issue it first. A
// scheduler that ran the function at the claim could not produce that order.
TEST(EngineIssue, ClaimedCollectiveOpsIssueInEitherOrder) {
  ControlledRig rig{one_pool(2)};
  rig.engine.declare_comm(dag::Communicator{"world", std::nullopt});
  std::vector<std::string> issued;
  auto submit = [&](const std::string& name) {
    OpDesc op{name, {}, {rig.var(name + ".buf")}};
    op.kind = dag::OpKind::async_collective;
    op.collective = collective(dag::CollectiveKind::allreduce, 0, 1, 8);
    return rig.engine.submit_async(op, [&issued, name](const AsyncDone& done) {
      issued.push_back(name);
      done();
    });
  };
  const OpHandle first = submit("first");
  const OpHandle second = submit("second");
  rig.claim(first);
  EXPECT_TRUE(issued.empty()) << "the claim ran the collective op's function";
  EXPECT_TRUE(rig.issuable(first));
  rig.claim(second);
  rig.issue(second);
  rig.issue(first);
  EXPECT_EQ(issued, (std::vector<std::string>{"second", "first"}));
  rig.complete(first);
  rig.complete(second);
  EXPECT_TRUE(rig.engine.all_done());
}

// A compute op's function has no effect another thread can see before the op completes, so its
// claim runs it: there is nothing to issue.
TEST(EngineIssue, ComputeOpRunsAtItsClaim) {
  ControlledRig rig{one_pool(1)};
  const OpHandle op = rig.op("compute", {}, {rig.var("v")});
  rig.claim(op);
  EXPECT_FALSE(rig.issuable(op));
  EXPECT_EQ(rig.log(), (std::vector<std::string>{"compute"}));
  rig.complete(op);
}

}  // namespace
}  // namespace ordo::engine::testing
