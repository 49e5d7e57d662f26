// Which op a pool starts next: the ready-order rule, FIFO versus priority pools, and thread
// occupancy.
#include <gtest/gtest.h>

#include "runtime/engine/errors.hpp"
#include "tests/engine/controlled_rig.hpp"

namespace ordo::engine::testing {
namespace {

using Log = std::vector<std::string>;

TEST(EngineReadyOrder, FifoPoolStartsInReadyOrder) {
  ControlledRig rig;
  const OpHandle a = rig.op("a", {}, {});
  const OpHandle b = rig.op("b", {}, {});
  EXPECT_FALSE(rig.startable(b));
  rig.run(a);
  rig.run(b);
  EXPECT_EQ(rig.log(), (Log{"a", "b"}));
}

// One completion readies x (through var b) and y (through var a); the writer releases a first,
// so y is granted first, yet they join the run queue in submit order: x, then y.
TEST(EngineReadyOrder, OpsReadiedByOneCompletionQueueInSubmitOrder) {
  ControlledRig rig;
  const VarHandle a = rig.var("a");
  const VarHandle b = rig.var("b");
  const OpHandle w = rig.op("w", {}, {a, b});
  const OpHandle x = rig.op("x", {b}, {});
  const OpHandle y = rig.op("y", {a}, {});
  rig.run(w);
  EXPECT_TRUE(rig.startable(x));
  EXPECT_FALSE(rig.startable(y));
  rig.run(x);
  rig.run(y);
  EXPECT_EQ(rig.log(), (Log{"w", "x", "y"}));
}

TEST(EngineReadyOrder, OpReadiedLaterQueuesBehindEarlierReadyOps) {
  ControlledRig rig(one_pool(1));
  const VarHandle v = rig.var("v");
  const OpHandle blocker = rig.op("blocker", {}, {v});
  const OpHandle late = rig.op("late", {v}, {});  // submitted early, ready late
  const OpHandle early = rig.op("early", {}, {});
  rig.run(blocker);
  EXPECT_TRUE(rig.startable(early));
  rig.run(early);
  rig.run(late);
  EXPECT_EQ(rig.log(), (Log{"blocker", "early", "late"}));
}

TEST(EngineReadyOrder, PriorityPoolStartsHighestPriorityFirst) {
  ControlledRig rig(one_pool(1, dag::PoolKind::priority));
  const VarHandle v = rig.var("v");
  const OpHandle gate = rig.op("gate", {}, {v});
  rig.start(gate);  // holds the only thread while the others become ready
  rig.op("low", {}, {}, 0, 1);
  const OpHandle high = rig.op("high", {}, {}, 0, 5);
  rig.op("mid", {}, {}, 0, 3);
  rig.complete(gate);
  EXPECT_TRUE(rig.startable(high));
  rig.run_all();
  EXPECT_EQ(rig.log(), (Log{"gate", "high", "mid", "low"}));
}

TEST(EngineReadyOrder, PriorityTiesStartInReadyOrder) {
  ControlledRig rig(one_pool(1, dag::PoolKind::priority));
  rig.op("first", {}, {}, 0, 2);
  rig.op("second", {}, {}, 0, 2);
  rig.op("third", {}, {}, 0, 2);
  rig.run_all();
  EXPECT_EQ(rig.log(), (Log{"first", "second", "third"}));
}

TEST(EngineReadyOrder, FifoPoolIgnoresPriority) {
  ControlledRig rig(one_pool(1, dag::PoolKind::fifo));
  rig.op("low", {}, {}, 0, 1);
  rig.op("high", {}, {}, 0, 9);
  rig.run_all();
  EXPECT_EQ(rig.log(), (Log{"low", "high"}));
}

TEST(EngineReadyOrder, PriorityOnlyOrdersReadyOps) {
  ControlledRig rig(one_pool(1, dag::PoolKind::priority));
  const VarHandle v = rig.var("v");
  const OpHandle writer = rig.op("writer", {}, {v}, 0, 0);
  const OpHandle urgent = rig.op("urgent", {v}, {}, 0, 100);  // waits for writer regardless
  EXPECT_TRUE(rig.startable(writer));
  EXPECT_FALSE(rig.startable(urgent));
  rig.run_all();
  EXPECT_EQ(rig.log(), (Log{"writer", "urgent"}));
}

TEST(EngineReadyOrder, OneThreadRunsOneOpAtATime) {
  ControlledRig rig(one_pool(1));
  const OpHandle a = rig.op("a", {}, {});
  const OpHandle b = rig.op("b", {}, {});
  rig.start(a);
  EXPECT_FALSE(rig.startable(b));
  EXPECT_THROW(rig.start(b), ScheduleError);
  rig.complete(a);
  EXPECT_TRUE(rig.startable(b));
}

TEST(EngineReadyOrder, PoolsRunIndependently) {
  ControlledRig rig({dag::Pool{"cpu", 1}, dag::Pool{"io", 1}});
  const OpHandle a = rig.op("a", {}, {}, 0);
  const OpHandle b = rig.op("b", {}, {}, 1);
  rig.start(a, 0);
  EXPECT_TRUE(rig.startable(b));
  rig.start(b, 1);
  EXPECT_TRUE(rig.completable(a));
  EXPECT_TRUE(rig.completable(b));
}

TEST(EngineReadyOrder, StartUsesTheLowestFreeThreadUnlessOneIsNamed) {
  ControlledRig rig(one_pool(3));
  const OpHandle a = rig.op("a", {}, {});
  const OpHandle b = rig.op("b", {}, {});
  const OpHandle c = rig.op("c", {}, {});
  rig.scheduler.apply(Start{0, a, 2});
  rig.start(b);
  rig.complete(b);
  rig.start(c);
  const std::vector<Decision> expected{Start{0, a, 2}, Start{0, b, 0}, Complete{b}, Start{0, c, 0}};
  EXPECT_EQ(rig.scheduler.trace(), expected);
}

}  // namespace
}  // namespace ordo::engine::testing
