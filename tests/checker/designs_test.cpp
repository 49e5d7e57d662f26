// The checker's verdicts on the KVStore designs: naive and concom with fewer communicators than
// outstanding keys are unsafe, with witnesses that reproduce the violation on the runtime; funnel
// and depcha are safe at 2 and 3 ranks.
#include <gtest/gtest.h>

#include "checker/search/explore.hpp"
#include "tests/checker/jobs.hpp"
#include "tests/checker/replay.hpp"

namespace ordo::checker::testing {
namespace {

using designs::DesignKind;

// Generous for the small networks below, and explicit: hitting it fails the tests as `unknown`.
constexpr ExploreLimits designs_limits{2'000'000, 120.0};

TEST(CheckerDesigns, NaiveMismatchesWithAReplayableWitness) {
  const dag::Job job = step_job(branches(), config(DesignKind::naive, 1));
  const System model(job, 2);
  const Result result = explore(model, designs_limits);
  ASSERT_EQ(result.verdict, Verdict::unsafe) << report(model, result);
  ASSERT_EQ(result.property, Property::p1_order);
  const auto& mismatch = std::get<comm::Mismatch>(*result.violation);
  EXPECT_EQ(mismatch.comm_name, "world");
  EXPECT_EQ(mismatch.seq, 0u);
  ASSERT_EQ(mismatch.calls.size(), 2u);
  EXPECT_NE(mismatch.calls[0].issuer.rank, mismatch.calls[1].issuer.rank);
  EXPECT_NE(mismatch.calls[0].call.key, mismatch.calls[1].call.key);
  const std::string text = report(model, result);
  EXPECT_NE(text.find("communicator 'world' at call 0"), std::string::npos) << text;
  EXPECT_NE(text.find("allreduce.a.w"), std::string::npos) << text;
  EXPECT_NE(text.find("allreduce.b.w"), std::string::npos) << text;

  exec::ControlledRun run(job, 2);
  const std::optional<exec::RunOutcome> end = replay(run, result.witness);
  ASSERT_TRUE(end);
  EXPECT_EQ(end->end, exec::RunEnd::violation) << end->report;
  ASSERT_TRUE(run.violation());
  EXPECT_TRUE(std::holds_alternative<comm::Mismatch>(*run.violation()));
}

TEST(CheckerDesigns, ConcomWithOneCommunicatorForTwoOutstandingBreaksTheThreadRule) {
  designs::DesignConfig c = config(DesignKind::concom, 2);
  c.ncomm = 1;
  c.outstanding = 2;
  const dag::Job job = step_job(networks::mlp(1, 2, 1.0), c);
  const System model(job, 2);
  const Result result = explore(model, designs_limits);
  ASSERT_EQ(result.verdict, Verdict::unsafe) << report(model, result);
  ASSERT_EQ(result.property, Property::p2_thread_rule);
  const auto& broken = std::get<comm::ThreadRuleBreak>(*result.violation);
  EXPECT_EQ(broken.in_flight.issuer.rank, broken.second.issuer.rank);
  EXPECT_TRUE(broken.in_flight.blocking || broken.second.blocking);

  exec::ControlledRun run(job, 2);
  const std::optional<exec::RunOutcome> end = replay(run, result.witness);
  ASSERT_TRUE(end);
  EXPECT_EQ(end->end, exec::RunEnd::violation) << end->report;
  const std::optional<comm::Violation> seen = run.violation();
  ASSERT_TRUE(seen);
  const auto* rt = std::get_if<comm::ThreadRuleBreak>(&*seen);
  ASSERT_NE(rt, nullptr) << end->report;
  // One violation type on both sides: the runtime's break is the checker's, field by field.
  EXPECT_EQ(*rt, broken);
}

void expect_safe(const dag::Job& job, std::uint32_t ranks) {
  const System model(job, ranks);
  const Result result = explore(model, designs_limits);
  EXPECT_EQ(result.verdict, Verdict::safe) << report(model, result);
  EXPECT_TRUE(result.witness.empty());
  // More states than transitions on one schedule: the search did branch.
  EXPECT_GT(result.stats.states, result.stats.depth_max);
}

TEST(CheckerDesigns, FunnelIsSafeOnTwoKeysAtTwoAndThreeRanks) {
  const dag::Job job = step_job(networks::mlp(1, 2, 1.0), config(DesignKind::funnel, 2));
  expect_safe(job, 2);
  expect_safe(job, 3);
}

TEST(CheckerDesigns, DepchaIsSafeOnTwoKeysAtTwoRanks) {
  expect_safe(step_job(networks::mlp(1, 2, 1.0), config(DesignKind::depcha, 2)), 2);
}

// Without partial-order reduction the two-key depcha step has more than a million states at three
// ranks; one key keeps the three-rank run to seconds and still interleaves every rank's copy,
// allreduce, pull and update with the other ranks'.
TEST(CheckerDesigns, DepchaIsSafeOnOneKeyAtThreeRanks) {
  expect_safe(step_job(one_key(), config(DesignKind::depcha, 2)), 3);
}

}  // namespace
}  // namespace ordo::checker::testing
