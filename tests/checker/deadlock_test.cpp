// Deadlocks: ranks that issue different numbers of collectives, and main threads whose
// collectives on three pairwise communicators close a cycle. Each witness must end, on the
// runtime, in a state where no transition is legal, which the runtime describes as the checker
// does, field by field (one description, runtime/comm/rules/deadlock.hpp).
#include <gtest/gtest.h>

#include <algorithm>

#include "checker/search/explore.hpp"
#include "tests/checker/jobs.hpp"
#include "tests/checker/replay.hpp"

namespace ordo::checker::testing {
namespace {

constexpr ExploreLimits deadlock_limits{100'000, 60.0};

bool mentions(const comm::Deadlock& d, const std::string& text) {
  const std::vector<std::string> waits = comm::wait_lines(d);
  return std::any_of(waits.begin(), waits.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

// The runtime's own description of where the witness leaves it is the checker's.
void expect_described_alike(const exec::ControlledRun& run, const comm::Deadlock& checker) {
  const std::optional<comm::Deadlock> runtime = run.deadlock();
  ASSERT_TRUE(runtime);
  EXPECT_EQ(*runtime, checker) << "runtime:\n"
                               << comm::describe(comm::Violation{*runtime}) << "\nchecker:\n"
                               << comm::describe(comm::Violation{checker});
}

TEST(CheckerDeadlock, OneAllreduceMoreOnRankZeroDeadlocksNamingRankZero) {
  const dag::Job job = allreduce_counts(2, 1);
  const System model(job, 2);
  const Result result = explore(model, deadlock_limits);
  ASSERT_EQ(result.verdict, Verdict::unsafe) << report(model, result);
  ASSERT_EQ(result.property, Property::p3_deadlock);
  const auto& d = std::get<comm::Deadlock>(*result.violation);
  EXPECT_EQ(d.ranks_blocked, std::vector<dag::Rank>{0});
  EXPECT_TRUE(mentions(d, "rank 0 main action 2: wait for all (1 ops incomplete)"))
      << report(model, result);
  EXPECT_TRUE(mentions(
      d,
      "rank 0 op 'ar1' on pool 'comm' thread 0: in allreduce of 4 x f32 (sum) on 'world', key 1"))
      << report(model, result);
  EXPECT_TRUE(mentions(d, "waiting for rank(s) 1")) << report(model, result);

  exec::ControlledRun run(job, 2);
  const std::optional<exec::RunOutcome> end = replay(run, result.witness);
  ASSERT_TRUE(end);
  EXPECT_EQ(end->end, exec::RunEnd::deadlock) << end->report;
  expect_described_alike(run, d);
}

TEST(CheckerDeadlock, EqualAllreduceCountsAreSafe) {
  const System model(allreduce_counts(2, 2), 2);
  const Result result = explore(model, deadlock_limits);
  EXPECT_EQ(result.verdict, Verdict::safe) << report(model, result);
}

TEST(CheckerDeadlock, CrossCommunicatorCycleDeadlocksEveryRank) {
  const dag::Job job = barrier_cycle();
  const System model(job, 3);
  const Result result = explore(model, deadlock_limits);
  ASSERT_EQ(result.verdict, Verdict::unsafe) << report(model, result);
  ASSERT_EQ(result.property, Property::p3_deadlock);
  const auto& d = std::get<comm::Deadlock>(*result.violation);
  EXPECT_EQ(d.ranks_blocked, (std::vector<dag::Rank>{0, 1, 2}));
  EXPECT_TRUE(mentions(d,
                       "rank 0 main action 0: in barrier on 'c01', key 0, call 0, waiting for "
                       "rank(s) 1"))
      << report(model, result);
  EXPECT_TRUE(mentions(d,
                       "rank 1 main action 0: in barrier on 'c12', key 0, call 0, waiting for "
                       "rank(s) 2"))
      << report(model, result);
  EXPECT_TRUE(mentions(d,
                       "rank 2 main action 0: in barrier on 'c20', key 0, call 0, waiting for "
                       "rank(s) 0"))
      << report(model, result);
  EXPECT_EQ(result.witness.size(), 3u);

  exec::ControlledRun run(job, 3);
  const std::optional<exec::RunOutcome> end = replay(run, result.witness);
  ASSERT_TRUE(end);
  EXPECT_EQ(end->end, exec::RunEnd::deadlock) << end->report;
  expect_described_alike(run, d);
}

TEST(CheckerDeadlock, TheSameCommunicatorsInAConsistentOrderAreSafe) {
  const System model(barrier_chain(), 3);
  const Result result = explore(model, deadlock_limits);
  EXPECT_EQ(result.verdict, Verdict::safe) << report(model, result);
}

}  // namespace
}  // namespace ordo::checker::testing
