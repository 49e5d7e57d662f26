// Exceptions in ops (MXNet semantics): a throwing op poisons its writes, ops that touch a poisoned
// var are skipped and pass the poison on, and a failure surfaces once, at the first wait that
// reaches it.
#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/engine/controlled_rig.hpp"

namespace ordo::engine::testing {
namespace {

using Log = std::vector<std::string>;

TEST(EnginePoison, ThrowingOpPoisonsItsWritesUntilSurfaced) {
  ControlledRig rig;
  const VarHandle v = rig.var("v");
  rig.failing_op("bad", "boom", {}, {v});
  rig.run_all();
  EXPECT_EQ(message_of<std::runtime_error>([&] { rig.engine.wait_to_read(v); }), "boom");
  EXPECT_NO_THROW(rig.engine.wait_to_read(v));
  EXPECT_NO_THROW(rig.engine.wait_for_all());
}

TEST(EnginePoison, OpReadingAPoisonedVarIsSkippedAndPassesThePoisonOn) {
  ControlledRig rig;
  const VarHandle v = rig.var("v");
  const VarHandle u = rig.var("u");
  rig.failing_op("bad", "boom", {}, {v});
  rig.op("reader", {v}, {u});
  rig.run_all();
  EXPECT_EQ(rig.log(), (Log{"bad"}));
  EXPECT_TRUE(rig.engine.all_done());
  EXPECT_EQ(message_of<std::runtime_error>([&] { rig.engine.wait_to_read(u); }), "boom");
}

TEST(EnginePoison, OpWritingAPoisonedVarIsSkipped) {
  ControlledRig rig;
  const VarHandle v = rig.var("v");
  rig.failing_op("bad", "boom", {}, {v});
  rig.op("overwrite", {}, {v});
  rig.run_all();
  EXPECT_EQ(rig.log(), (Log{"bad"}));
  EXPECT_THROW(rig.engine.wait_to_read(v), std::runtime_error);
}

TEST(EnginePoison, SkippedOpCompletesAtStartWithoutHoldingItsThread) {
  ControlledRig rig(one_pool(1));
  const VarHandle v = rig.var("v");
  const OpHandle bad = rig.failing_op("bad", "boom", {}, {v});
  const OpHandle reader = rig.op("reader", {v}, {});
  rig.run(bad);
  rig.start(reader);
  EXPECT_FALSE(rig.completable(reader));
  EXPECT_TRUE(rig.engine.all_done());
  const OpHandle next = rig.op("next", {}, {});
  EXPECT_TRUE(rig.startable(next));
  EXPECT_EQ(rig.log(), (Log{"bad"}));
}

TEST(EnginePoison, SurfacingAtOneVarClearsTheFailureEverywhere) {
  ControlledRig rig;
  const VarHandle v = rig.var("v");
  const VarHandle u = rig.var("u");
  rig.failing_op("bad", "boom", {}, {v});
  rig.op("reader", {v}, {u});
  rig.run_all();
  EXPECT_THROW(rig.engine.wait_to_read(u), std::runtime_error);
  EXPECT_NO_THROW(rig.engine.wait_to_read(v));
  EXPECT_NO_THROW(rig.engine.wait_for_all());
  rig.op("after", {v}, {u});
  rig.run_all();
  EXPECT_EQ(rig.log(), (Log{"bad", "after"}));
}

TEST(EnginePoison, WaitForAllRethrowsTheEarliestFailureAndClearsAll) {
  ControlledRig rig;
  const VarHandle v1 = rig.var("v1");
  const VarHandle v2 = rig.var("v2");
  rig.failing_op("first", "one", {}, {v1});
  rig.failing_op("second", "two", {}, {v2});
  rig.run_all();
  EXPECT_EQ(message_of<std::runtime_error>([&] { rig.engine.wait_for_all(); }), "one");
  EXPECT_NO_THROW(rig.engine.wait_for_all());
  EXPECT_NO_THROW(rig.engine.wait_to_read(v2));
}

TEST(EnginePoison, FailureSurfacedAtAVarIsNotRethrownByWaitForAll) {
  ControlledRig rig;
  const VarHandle v1 = rig.var("v1");
  const VarHandle v2 = rig.var("v2");
  rig.failing_op("first", "one", {}, {v1});
  rig.failing_op("second", "two", {}, {v2});
  rig.run_all();
  EXPECT_EQ(message_of<std::runtime_error>([&] { rig.engine.wait_to_read(v1); }), "one");
  EXPECT_EQ(message_of<std::runtime_error>([&] { rig.engine.wait_for_all(); }), "two");
}

TEST(EnginePoison, FailureOfAnOpWithoutWritesSurfacesOnlyAtWaitForAll) {
  ControlledRig rig;
  const VarHandle v = rig.var("v");
  rig.failing_op("sink", "lost", {v}, {});
  rig.run_all();
  EXPECT_NO_THROW(rig.engine.wait_to_read(v));
  EXPECT_EQ(message_of<std::runtime_error>([&] { rig.engine.wait_for_all(); }), "lost");
}

TEST(EnginePoison, FailuresPastTheListBoundStillSurfaceThroughTheirVars) {
  ControlledRig rig(one_pool(), Limits{16, 16, 1});
  const VarHandle v1 = rig.var("v1");
  const VarHandle v2 = rig.var("v2");
  rig.failing_op("first", "one", {}, {v1});
  rig.failing_op("second", "two", {}, {v2});  // past failures_listed_max
  rig.run_all();
  EXPECT_EQ(message_of<std::runtime_error>([&] { rig.engine.wait_to_read(v1); }), "one");
  EXPECT_EQ(message_of<std::runtime_error>([&] { rig.engine.wait_for_all(); }), "two");
  EXPECT_NO_THROW(rig.engine.wait_for_all());
}

}  // namespace
}  // namespace ordo::engine::testing
