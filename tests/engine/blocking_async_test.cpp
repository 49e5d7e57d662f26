// Blocking collectives completed through a handle (async ops of kind collective): the op keeps
// its pool thread after its function returns, until it completes, under both schedulers.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "runtime/engine/thread_pool_scheduler.hpp"
#include "tests/common/eventually.hpp"
#include "tests/engine/controlled_rig.hpp"

namespace ordo::engine::testing {
namespace {

OpDesc blocking_desc(const std::string& name, VarHandle var) {
  OpDesc op{name, {}, {var}};
  op.kind = dag::OpKind::collective;
  op.collective = collective(dag::CollectiveKind::allreduce, 0, 1, 8);
  return op;
}

TEST(EngineBlockingAsync, KeepsItsThreadUntilItCompletes) {
  ControlledRig rig{one_pool(1)};
  rig.engine.declare_comm(dag::Communicator{"world", std::nullopt});
  const VarHandle v = rig.var("v");
  std::optional<AsyncDone> handle;
  const OpHandle reduce = rig.engine.submit_async(blocking_desc("allreduce", v),
                                                [&handle](const AsyncDone& d) { handle = d; });
  const OpHandle other = rig.op("other", {}, {});
  rig.start(reduce);
  ASSERT_TRUE(handle.has_value());
  EXPECT_FALSE(rig.startable(other));  // the only thread is still in the collective
  (*handle)();
  EXPECT_FALSE(rig.startable(other));  // fired, but its completion is not applied yet
  rig.complete(reduce);
  EXPECT_TRUE(rig.startable(other));
  rig.run(other);
  EXPECT_TRUE(rig.engine.all_done());
  const Activity idle = rig.engine.activity();
  EXPECT_EQ(idle.functions_running, 0u);
  EXPECT_EQ(idle.ops_incomplete, 0u);
}

TEST(EngineBlockingAsync, HandleFiredInsideTheFunctionFreesTheThreadAtCompletion) {
  ControlledRig rig{one_pool(1)};
  rig.engine.declare_comm(dag::Communicator{"world", std::nullopt});
  const VarHandle v = rig.var("v");
  const OpHandle reduce = rig.engine.submit_async(blocking_desc("allreduce", v),
                                                [](const AsyncDone& d) { d(); });
  const OpHandle other = rig.op("other", {}, {});
  rig.start(reduce);
  EXPECT_FALSE(rig.startable(other));
  rig.complete(reduce);
  EXPECT_TRUE(rig.startable(other));
}

TEST(EngineBlockingAsync, ActivityCountsAStartableOpAndARunningFunction) {
  ControlledRig rig{one_pool(1)};
  const OpHandle a = rig.op("a", {}, {});
  EXPECT_EQ(rig.engine.activity().ops_startable, 1u);
  rig.start(a);
  const Activity running = rig.engine.activity();
  EXPECT_EQ(running.functions_running, 1u);  // a sync op runs until it completes
  EXPECT_EQ(running.ops_startable, 0u);
  rig.complete(a);
  EXPECT_EQ(rig.engine.activity(), Activity{});
}

// On real threads: a one-thread pool must not start the next op while a blocking collective is
// in flight, even though the worker's function call already returned.
TEST(EngineBlockingAsync, ThreadPoolWaitsForTheCollectiveBeforeTheNextOp) {
  EngineConfig config;
  config.pools = one_pool(1);
  Engine engine(std::move(config), std::make_unique<ThreadPoolScheduler>());
  engine.declare_comm(dag::Communicator{"world", std::nullopt});
  const VarHandle v = engine.new_var(dag::Var{"v"});
  std::mutex mutex;
  std::condition_variable changed;
  std::optional<AsyncDone> handle;
  bool other_ran = false;
  engine.submit_async(blocking_desc("allreduce", v), [&](const AsyncDone& d) {
    std::lock_guard lock(mutex);
    handle = d;
    changed.notify_all();
  });
  engine.submit(OpDesc{"other", {}, {}}, [&] {
    std::lock_guard lock(mutex);
    other_ran = true;
  });
  {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return handle.has_value(); });
  }
  // Once the worker has returned from the collective's function, the rules still hold its
  // thread, so the engine reports nothing running and nothing startable until it completes.
  Activity stuck;
  ASSERT_TRUE(ordo::testing::eventually([&] {
    stuck = engine.activity();
    return stuck.functions_running == 0;
  }));
  EXPECT_EQ(stuck.ops_startable, 0u);
  EXPECT_EQ(stuck.ops_incomplete, 2u);
  {
    std::lock_guard lock(mutex);
    EXPECT_FALSE(other_ran);
  }
  std::thread([h = *handle] { h(); }).join();
  engine.wait_for_all();
  std::lock_guard lock(mutex);
  EXPECT_TRUE(other_ran);
}

}  // namespace
}  // namespace ordo::engine::testing
