// The controlled scheduler as a tool: legal decisions, replay determinism, random runs, and an
// exact message for every illegal decision.
#include <gtest/gtest.h>

#include <set>

#include "runtime/engine/errors.hpp"
#include "runtime/engine/random_run.hpp"
#include "tests/engine/controlled_rig.hpp"

namespace ordo::engine::testing {
namespace {

// A small step: two pools, a write chain, readers and an independent op.
struct Scenario {
  ControlledRig rig{{dag::Pool{"cpu", 2}, dag::Pool{"io", 1}}};
  Scenario() {
    const VarHandle a = rig.var("a");
    const VarHandle b = rig.var("b");
    rig.op("w1", {}, {a});
    rig.op("r1", {a}, {b}, 1);
    rig.op("r2", {a}, {});
    rig.op("w2", {}, {a});
    rig.op("solo", {}, {}, 1);
    rig.op("r3", {a, b}, {});
  }
};

TEST(ControlledScheduler, LegalDecisionsListStartsByPoolThenCompletionsInStartOrder) {
  Scenario s;
  const std::vector<Decision> first = s.rig.scheduler.legal_decisions();
  ASSERT_EQ(first.size(), 2u);
  const Start w1 = std::get<Start>(first[0]);
  const Start solo = std::get<Start>(first[1]);
  EXPECT_EQ(w1.pool, 0u);
  EXPECT_EQ(solo.pool, 1u);
  s.rig.scheduler.apply(solo);
  s.rig.scheduler.apply(w1);
  const std::vector<Decision> second = s.rig.scheduler.legal_decisions();
  const std::vector<Decision> expected{Complete{solo.op}, Complete{w1.op}};
  EXPECT_EQ(second, expected);
}

TEST(ControlledScheduler, SameDecisionsGiveTheSameTraceAndEffects) {
  Scenario first;
  take_random_decisions(first.rig.scheduler, 7, 1000);
  Scenario second;
  for (const Decision& decision : first.rig.scheduler.trace()) second.rig.scheduler.apply(decision);
  EXPECT_EQ(second.rig.scheduler.trace(), first.rig.scheduler.trace());
  EXPECT_EQ(second.rig.log(), first.rig.log());
  EXPECT_TRUE(first.rig.engine.all_done());
  EXPECT_TRUE(second.rig.engine.all_done());
}

TEST(ControlledScheduler, RandomRunIsDeterministicPerSeedAndVariesAcrossSeeds) {
  std::set<std::vector<std::string>> logs;
  for (std::uint64_t seed = 0; seed < 16; ++seed) {
    Scenario once;
    Scenario again;
    const RandomRun run = take_random_decisions(once.rig.scheduler, seed, 1000);
    take_random_decisions(again.rig.scheduler, seed, 1000);
    EXPECT_TRUE(run.quiescent);
    EXPECT_EQ(run.decisions, 12u);  // six ops, each started and completed
    EXPECT_EQ(once.rig.scheduler.trace(), again.rig.scheduler.trace());
    logs.insert(once.rig.log());
  }
  EXPECT_GT(logs.size(), 1u);
}

TEST(ControlledScheduler, RandomRunStopsAtTheDecisionBound) {
  Scenario s;
  const RandomRun run = take_random_decisions(s.rig.scheduler, 3, 4);
  EXPECT_EQ(run.decisions, 4u);
  EXPECT_FALSE(run.quiescent);
  EXPECT_EQ(s.rig.scheduler.trace().size(), 4u);
}

class ControlledSchedulerIllegal : public ::testing::Test {
 protected:
  std::string start_error(const Start& decision) {
    const std::size_t trace_size = rig.scheduler.trace().size();
    const std::string message = message_of<ScheduleError>([&] { rig.scheduler.apply(decision); });
    EXPECT_EQ(rig.scheduler.trace().size(), trace_size);  // an illegal decision changes nothing
    return message;
  }

  ControlledRig rig{{dag::Pool{"cpu", 1}, dag::Pool{"io", 2}}};
  VarHandle v = rig.var("v");
  OpHandle a = rig.op("a", {}, {v});
  OpHandle b = rig.op("b", {}, {});
  OpHandle c = rig.op("c", {v}, {});
};

TEST_F(ControlledSchedulerIllegal, StartOfAnOpBehindTheHead) {
  EXPECT_EQ(start_error(Start{0, b, std::nullopt}),
            "cannot start op 'b' (slot 1 gen 0) on pool 'cpu': it is not at the head of the "
            "pool's run queue; the pool would start op 'a' (slot 0 gen 0) next");
}

TEST_F(ControlledSchedulerIllegal, StartOfAnOpWaitingForItsVars) {
  EXPECT_EQ(start_error(Start{0, c, std::nullopt}),
            "cannot start op 'c' (slot 2 gen 0) on pool 'cpu': it has not started; it is waiting "
            "for its vars; the pool would start op 'a' (slot 0 gen 0) next");
}

TEST_F(ControlledSchedulerIllegal, StartOnAnotherPool) {
  EXPECT_EQ(start_error(Start{1, a, std::nullopt}),
            "cannot start op 'a' (slot 0 gen 0) on pool 'io': the op belongs to pool 'cpu'");
}

TEST_F(ControlledSchedulerIllegal, StartOnAnUnknownPool) {
  EXPECT_EQ(start_error(Start{5, a, std::nullopt}),
            "cannot start op 'a' (slot 0 gen 0) on pool 5: the engine has 2 pools");
}

TEST_F(ControlledSchedulerIllegal, StartWithoutAFreeThread) {
  rig.start(a);
  EXPECT_EQ(start_error(Start{0, b, std::nullopt}),
            "cannot start op 'b' (slot 1 gen 0) on pool 'cpu': no free thread; all 1 threads are "
            "busy running 'a' (slot 0 gen 0)");
}

TEST_F(ControlledSchedulerIllegal, StartOnABusyThread) {
  const OpHandle d = rig.op("d", {}, {}, 1);
  const OpHandle e = rig.op("e", {}, {}, 1);
  rig.scheduler.apply(Start{1, d, 1});
  EXPECT_EQ(start_error(Start{1, e, 1}),
            "cannot start op 'e' (slot 4 gen 0) on pool 'io': thread 1 is busy running op 'd' "
            "(slot 3 gen 0)");
  EXPECT_EQ(start_error(Start{1, e, 2}),
            "cannot start op 'e' (slot 4 gen 0) on pool 'io': thread 2 does not exist (the pool "
            "has 2 threads)");
}

TEST_F(ControlledSchedulerIllegal, StartOfARunningOp) {
  rig.start(a);
  rig.complete(a);
  rig.start(b);
  EXPECT_EQ(start_error(Start{0, b, std::nullopt}),
            "cannot start op 'b' (slot 1 gen 0) on pool 'cpu': it is already running; the pool "
            "would start op 'c' (slot 2 gen 0) next");
}

TEST_F(ControlledSchedulerIllegal, CompleteOfAnOpNotStarted) {
  EXPECT_EQ(message_of<ScheduleError>([&] { rig.complete(b); }),
            "cannot complete op 'b' (slot 1 gen 0): it has not started; it is in the run queue "
            "of pool 'cpu'");
  EXPECT_EQ(message_of<ScheduleError>([&] { rig.complete(c); }),
            "cannot complete op 'c' (slot 2 gen 0): it has not started; it is waiting for its "
            "vars");
}

TEST_F(ControlledSchedulerIllegal, DecisionsOnARetiredOp) {
  rig.run(a);
  EXPECT_EQ(message_of<ScheduleError>([&] { rig.complete(a); }),
            "cannot complete op (slot 0 gen 0): the handle is stale (the op retired, or never "
            "existed)");
  EXPECT_EQ(start_error(Start{0, a, std::nullopt}),
            "cannot start op (slot 0 gen 0) on pool 'cpu': the handle is stale (the op retired, "
            "or never existed)");
}

TEST_F(ControlledSchedulerIllegal, DescribeNamesOpPoolAndThread) {
  EXPECT_EQ(rig.scheduler.describe(Start{0, a, 0}),
            "start 'a' (slot 0 gen 0) on pool 'cpu' thread 0");
  EXPECT_EQ(rig.scheduler.describe(Complete{b}), "complete 'b' (slot 1 gen 0)");
}

}  // namespace
}  // namespace ordo::engine::testing
