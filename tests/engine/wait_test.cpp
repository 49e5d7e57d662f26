// wait_to_read / wait_for_all and back-pressure under the controlled scheduler, where a wait that
// would block throws WouldBlock instead.
#include <gtest/gtest.h>

#include "runtime/engine/errors.hpp"
#include "tests/engine/controlled_rig.hpp"

namespace ordo::engine::testing {
namespace {

TEST(EngineWait, WaitToReadWouldBlockUntilSubmittedWritesComplete) {
  ControlledRig rig;
  const VarHandle v = rig.var("grad");
  const OpHandle w = rig.op("w", {}, {v});
  EXPECT_FALSE(rig.engine.can_read(v));
  const std::string message = message_of<WouldBlock>([&] { rig.engine.wait_to_read(v); });
  EXPECT_EQ(message.rfind("wait_to_read(var 0 'grad'): 0 of the 1 writes submitted to it "
                          "completed; under the controlled scheduler this would block forever",
                          0),
            0u)
      << message;
  rig.start(w);
  EXPECT_THROW(rig.engine.wait_to_read(v), WouldBlock);  // running is not completed
  rig.complete(w);
  EXPECT_TRUE(rig.engine.can_read(v));
  EXPECT_NO_THROW(rig.engine.wait_to_read(v));
}

TEST(EngineWait, WaitToReadDoesNotWaitForReads) {
  ControlledRig rig;
  const VarHandle v = rig.var("v");
  rig.op("r", {v}, {});
  EXPECT_TRUE(rig.engine.can_read(v));
  EXPECT_NO_THROW(rig.engine.wait_to_read(v));
}

TEST(EngineWait, WaitToReadCoversEveryWriteSubmittedSoFar) {
  ControlledRig rig(one_pool(2));
  const VarHandle v = rig.var("v");
  const OpHandle w1 = rig.op("w1", {}, {v});
  rig.run(w1);
  EXPECT_TRUE(rig.engine.can_read(v));
  const OpHandle w2 = rig.op("w2", {}, {v});
  EXPECT_FALSE(rig.engine.can_read(v));
  rig.run(w2);
  EXPECT_TRUE(rig.engine.can_read(v));
}

TEST(EngineWait, WaitForAllWouldBlockUntilEveryOpCompletes) {
  ControlledRig rig;
  const VarHandle v = rig.var("v");
  rig.op("a", {}, {v});
  rig.op("b", {v}, {});
  EXPECT_FALSE(rig.engine.all_done());
  EXPECT_EQ(message_of<WouldBlock>([&] {
              rig.engine.wait_for_all();
            }).rfind("wait_for_all(): 2 ops not complete, 0 discarded", 0),
            0u);
  rig.run_all();
  EXPECT_TRUE(rig.engine.all_done());
  EXPECT_NO_THROW(rig.engine.wait_for_all());
}

TEST(EngineWait, SubmitAtTheOpsPendingBoundWouldBlock) {
  ControlledRig rig(one_pool(), Limits{2});
  const OpHandle a = rig.op("a", {}, {});
  rig.op("b", {}, {});
  const std::string message = message_of<WouldBlock>([&] { rig.op("c", {}, {}); });
  EXPECT_EQ(message.rfind("submission of op 'c' at limits.ops_pending_max (2)", 0), 0u) << message;
  rig.run(a);
  EXPECT_NO_THROW(rig.op("c", {}, {}));
}

TEST(EngineWait, SubmitFromInsideAnOpAtTheBoundFailsThatOp) {
  ControlledRig rig(one_pool(), Limits{1});
  const VarHandle v = rig.var("v");
  const OpHandle outer =
      rig.engine.submit(OpDesc{"outer", {}, {v}}, [&rig] { rig.op("inner", {}, {}); });
  rig.run(outer);
  EXPECT_THROW(rig.engine.wait_to_read(v), CapacityError);
}

TEST(EngineWait, WaitFromInsideAnOpFailsThatOp) {
  ControlledRig rig;
  const VarHandle v = rig.var("v");
  const OpHandle waiter =
      rig.engine.submit(OpDesc{"waiter", {}, {v}}, [&rig, v] { rig.engine.wait_to_read(v); });
  rig.run(waiter);
  const std::string message = message_of<UsageError>([&] { rig.engine.wait_to_read(v); });
  EXPECT_EQ(message.rfind("wait_to_read called from inside an op of the same engine", 0), 0u);
}

TEST(EngineWait, WaitOnUnknownVarIsAUsageError) {
  ControlledRig rig;
  EXPECT_THROW(rig.engine.wait_to_read(VarHandle{4}), UsageError);
}

}  // namespace
}  // namespace ordo::engine::testing
