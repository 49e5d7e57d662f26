// The rules on their own: slot recycling, stale handles, copies as independent values, bounds.
#include "runtime/engine/rules/engine_state.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "runtime/engine/rules/errors.hpp"

namespace ordo::engine {
namespace {

EngineState one_pool_rules(Limits limits = {}) { return EngineState({dag::Pool{"cpu", 1}}, limits); }

// Starts and finishes the next op of pool 0.
OpHandle run_next(EngineState& rules) {
  const Started started = rules.start_next(0, 0);
  rules.complete(started.op, nullptr);
  return started.op;
}

TEST(EngineRules, OpSlotsAreRecycled) {
  EngineState rules = one_pool_rules();
  const VarHandle v = rules.add_var();
  const OpDesc desc{"w", {}, {v}};
  for (int i = 0; i < 100'000; ++i) {
    rules.submit(desc, false);
    run_next(rules);
  }
  EXPECT_EQ(rules.ops_live(), 0u);
  EXPECT_EQ(rules.op_slots_allocated(), 1u);
  EXPECT_EQ(rules.writes_completed(v), 100'000u);
}

TEST(EngineRules, StaleHandlesAreDetected) {
  EngineState rules = one_pool_rules();
  const OpHandle first = rules.submit(OpDesc{"a"}, false);
  run_next(rules);
  const OpHandle second = rules.submit(OpDesc{"b"}, false);
  EXPECT_EQ(second.slot, first.slot);
  EXPECT_NE(second.generation, first.generation);
  EXPECT_EQ(rules.find(first), nullptr);
  EXPECT_NE(rules.find(second), nullptr);
  EXPECT_THROW(rules.complete(first, nullptr), UsageError);
}

TEST(EngineRules, FinishOfAnOpNotRunningIsAUsageError) {
  EngineState rules = one_pool_rules();
  const OpHandle op = rules.submit(OpDesc{"a"}, false);
  EXPECT_THROW(rules.complete(op, nullptr), UsageError);
}

TEST(EngineRules, MisusedTransitionsAreUsageErrors) {
  EngineState rules = one_pool_rules();
  EXPECT_THROW(rules.start_next(0, 0), UsageError);  // nothing ready
  EXPECT_THROW(rules.peek_next(4), UsageError);
  const OpHandle op = rules.submit(OpDesc{"a"}, false);
  EXPECT_THROW(rules.start_next(0, 1), UsageError);  // the pool has one thread
  rules.start_next(0, 0);
  EXPECT_THROW(rules.thread_returned(op), UsageError);  // a sync op keeps its thread
}

TEST(EngineRules, CopiesEvolveIndependently) {
  EngineState original = one_pool_rules();
  const VarHandle v = original.add_var();
  original.submit(OpDesc{"w1", {}, {v}}, false);
  original.submit(OpDesc{"w2", {}, {v}}, false);
  EngineState copy = original;
  run_next(copy);
  EXPECT_EQ(copy.writes_completed(v), 1u);
  EXPECT_EQ(original.writes_completed(v), 0u);
  EXPECT_EQ(original.ops_incomplete(), 2u);
  run_next(original);
  run_next(original);
  EXPECT_EQ(original.writes_completed(v), 2u);
  EXPECT_EQ(copy.ops_incomplete(), 1u);
}

TEST(EngineRules, SubmitBeyondOpsPendingMaxIsACapacityError) {
  EngineState rules = one_pool_rules(Limits{2});
  rules.submit(OpDesc{"a"}, false);
  rules.submit(OpDesc{"b"}, false);
  EXPECT_FALSE(rules.has_room());
  EXPECT_THROW(rules.submit(OpDesc{"c"}, false), CapacityError);
  run_next(rules);
  EXPECT_TRUE(rules.has_room());
}

TEST(EngineRules, VarsBeyondVarsMaxAreACapacityError) {
  EngineState rules = one_pool_rules(Limits{16, 2});
  rules.add_var();
  rules.add_var();
  EXPECT_THROW(rules.add_var(), CapacityError);
}

TEST(EngineRules, DiscardKeepsTheGrantsOfStartedOps) {
  EngineState rules({dag::Pool{"cpu", 2}}, Limits{});
  const VarHandle v = rules.add_var();
  const VarHandle u = rules.add_var();
  rules.submit(OpDesc{"reader", {v}, {}}, false);
  const Started reader = rules.start_next(0, 0);
  rules.submit(OpDesc{"writer", {u}, {v}}, false);  // granted u, waits for v
  EXPECT_EQ(rules.discard_unstarted().size(), 1u);
  EXPECT_EQ(rules.ops_incomplete(), 1u);
  rules.submit(OpDesc{"u-writer", {}, {u}}, false);
  EXPECT_TRUE(rules.peek_next(0).has_value());  // the discarded writer's grant on u is gone
  rules.submit(OpDesc{"v-writer", {}, {v}}, false);
  rules.complete(reader.op, nullptr);
  EXPECT_EQ(rules.last_ready().size(), 1u);  // v-writer waited for the surviving read
}

TEST(EngineRules, LastReadyIsSortedBySubmitOrder) {
  EngineState rules = one_pool_rules();
  const VarHandle a = rules.add_var();
  const VarHandle b = rules.add_var();
  rules.submit(OpDesc{"w", {}, {a, b}}, false);
  const OpHandle x = rules.submit(OpDesc{"x", {b}, {}}, false);
  const OpHandle y = rules.submit(OpDesc{"y", {a}, {}}, false);
  run_next(rules);
  const std::vector<OpHandle> ready(rules.last_ready().begin(), rules.last_ready().end());
  EXPECT_EQ(ready, (std::vector<OpHandle>{x, y}));
}

TEST(EngineRules, PoisonTravelsWithTheFailureId) {
  EngineState rules = one_pool_rules();
  const VarHandle v = rules.add_var();
  const VarHandle u = rules.add_var();
  rules.submit(OpDesc{"bad", {}, {v}}, false);
  rules.submit(OpDesc{"next", {v}, {u}}, false);
  const Started bad = rules.start_next(0, 0);
  rules.complete(bad.op, std::make_exception_ptr(std::runtime_error("boom")));
  EXPECT_TRUE(rules.poisoned(v));
  EXPECT_TRUE(rules.start_next(0, 0).skipped);
  EXPECT_TRUE(rules.poisoned(u));
  EXPECT_NE(rules.surface_var(u), nullptr);
  EXPECT_FALSE(rules.poisoned(v));
  EXPECT_EQ(rules.surface_all(), nullptr);
}

}  // namespace
}  // namespace ordo::engine
