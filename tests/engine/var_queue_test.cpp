// Per-var FIFO semantics (docs/semantics.md, E1-E3), one decision at a time under the controlled
// scheduler.
#include <gtest/gtest.h>

#include "runtime/engine/errors.hpp"
#include "tests/engine/controlled_rig.hpp"

namespace ordo::engine::testing {
namespace {

using Log = std::vector<std::string>;

TEST(EngineVarQueue, ReadsOfOneVarRunTogether) {
  ControlledRig rig(one_pool(2));
  const VarHandle v = rig.var("v");
  const OpHandle r1 = rig.op("r1", {v}, {});
  const OpHandle r2 = rig.op("r2", {v}, {});
  rig.start(r1);
  EXPECT_TRUE(rig.startable(r2));
  rig.start(r2);
  EXPECT_TRUE(rig.completable(r1));
  EXPECT_TRUE(rig.completable(r2));
  EXPECT_EQ(rig.log(), (Log{"r1", "r2"}));
}

TEST(EngineVarQueue, WriteIsNotStartableWhileAReadRuns) {
  ControlledRig rig(one_pool(2));
  const VarHandle v = rig.var("v");
  const OpHandle r = rig.op("r", {v}, {});
  const OpHandle w = rig.op("w", {}, {v});
  rig.start(r);
  EXPECT_FALSE(rig.startable(w));
  EXPECT_THROW(rig.start(w), ScheduleError);
  rig.complete(r);
  EXPECT_TRUE(rig.startable(w));
}

TEST(EngineVarQueue, ReadIsNotStartableWhileAWriteRuns) {
  ControlledRig rig(one_pool(2));
  const VarHandle v = rig.var("v");
  const OpHandle w = rig.op("w", {}, {v});
  const OpHandle r = rig.op("r", {v}, {});
  rig.start(w);
  EXPECT_FALSE(rig.startable(r));
  rig.complete(w);
  EXPECT_TRUE(rig.startable(r));
}

TEST(EngineVarQueue, WritesRunInSubmitOrder) {
  ControlledRig rig(one_pool(3));
  const VarHandle v = rig.var("v");
  const OpHandle w1 = rig.op("w1", {}, {v});
  const OpHandle w2 = rig.op("w2", {}, {v});
  const OpHandle w3 = rig.op("w3", {}, {v});
  EXPECT_TRUE(rig.startable(w1));
  EXPECT_FALSE(rig.startable(w2));
  rig.run(w1);
  EXPECT_FALSE(rig.startable(w3));
  rig.run(w2);
  rig.run(w3);
  EXPECT_EQ(rig.log(), (Log{"w1", "w2", "w3"}));
}

TEST(EngineVarQueue, WriteAfterReadsWaitsForAllOfThem) {
  ControlledRig rig(one_pool(3));
  const VarHandle v = rig.var("v");
  const OpHandle r1 = rig.op("r1", {v}, {});
  const OpHandle r2 = rig.op("r2", {v}, {});
  const OpHandle w = rig.op("w", {}, {v});
  rig.start(r1);
  rig.start(r2);
  rig.complete(r2);
  EXPECT_FALSE(rig.startable(w));
  rig.complete(r1);
  EXPECT_TRUE(rig.startable(w));
}

TEST(EngineVarQueue, ReadSubmittedAfterAQueuedWriteWaitsBehindIt) {
  ControlledRig rig(one_pool(3));
  const VarHandle v = rig.var("v");
  const OpHandle r1 = rig.op("r1", {v}, {});
  rig.start(r1);
  const OpHandle w = rig.op("w", {}, {v});
  const OpHandle r2 = rig.op("r2", {v}, {});
  // Only a read holds v, so r2 could share it; it must not overtake the queued write.
  EXPECT_FALSE(rig.startable(r2));
  rig.complete(r1);
  EXPECT_TRUE(rig.startable(w));
  EXPECT_FALSE(rig.startable(r2));
  rig.run(w);
  EXPECT_TRUE(rig.startable(r2));
  EXPECT_EQ(rig.log(), (Log{"r1", "w"}));
}

TEST(EngineVarQueue, ConsecutiveReadsAfterAWriteAreGrantedTogether) {
  ControlledRig rig(one_pool(3));
  const VarHandle v = rig.var("v");
  const OpHandle w = rig.op("w", {}, {v});
  const OpHandle r1 = rig.op("r1", {v}, {});
  const OpHandle r2 = rig.op("r2", {v}, {});
  const OpHandle w2 = rig.op("w2", {}, {v});
  rig.run(w);
  rig.start(r1);
  rig.start(r2);
  EXPECT_FALSE(rig.startable(w2));
  rig.complete(r1);
  rig.complete(r2);
  EXPECT_TRUE(rig.startable(w2));
}

TEST(EngineVarQueue, OpWaitsForEveryVarItNames) {
  ControlledRig rig(one_pool(3));
  const VarHandle a = rig.var("a");
  const VarHandle b = rig.var("b");
  const OpHandle wa = rig.op("wa", {}, {a});
  const OpHandle wb = rig.op("wb", {}, {b});
  const OpHandle both = rig.op("both", {a}, {b});
  rig.start(wa);
  rig.start(wb);
  rig.complete(wa);
  EXPECT_FALSE(rig.startable(both));
  rig.complete(wb);
  EXPECT_TRUE(rig.startable(both));
}

TEST(EngineVarQueue, OpsOnDifferentVarsDoNotWaitForEachOther) {
  ControlledRig rig(one_pool(2));
  const VarHandle a = rig.var("a");
  const VarHandle b = rig.var("b");
  const OpHandle wa = rig.op("wa", {}, {a});
  const OpHandle wb = rig.op("wb", {}, {b});
  rig.start(wa);
  EXPECT_TRUE(rig.startable(wb));
}

TEST(EngineVarQueue, OpWithoutVarsIsReadyWhenSubmitted) {
  ControlledRig rig;
  const OpHandle lone = rig.op("lone", {}, {});
  EXPECT_TRUE(rig.startable(lone));
}

}  // namespace
}  // namespace ordo::engine::testing
