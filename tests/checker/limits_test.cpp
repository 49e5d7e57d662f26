// Bounds end the search with `unknown` naming the bound, never with `safe`; the model refuses
// jobs it cannot run.
#include <gtest/gtest.h>

#include <stdexcept>

#include "checker/search/explore.hpp"
#include "tests/checker/jobs.hpp"

namespace ordo::checker::testing {
namespace {

TEST(CheckerLimits, TooFewStatesGiveUnknownWithTheBoundNamed) {
  const System model(step_job(networks::mlp(1, 2, 1.0), config(designs::DesignKind::depcha, 2)), 2);
  const Result result = explore(model, ExploreLimits{50, 60.0});
  ASSERT_EQ(result.verdict, Verdict::unknown) << report(model, result);
  EXPECT_EQ(result.bound, Bound::states_max);
  EXPECT_EQ(result.bound_value, 50u);
  EXPECT_EQ(result.stats.states, 50u);
  EXPECT_FALSE(result.property);
  EXPECT_TRUE(result.witness.empty());
  const std::string text = report(model, result);
  EXPECT_NE(text.find("unknown at 2 rank(s): bound states_max = 50 reached"), std::string::npos)
      << text;
}

TEST(CheckerLimits, NoTimeGivesUnknownWithTheTimeBoundNamed) {
  const System model(step_job(networks::mlp(1, 2, 1.0), config(designs::DesignKind::depcha, 2)), 3);
  const Result result = explore(model, ExploreLimits{1'000'000, 0.0});
  ASSERT_EQ(result.verdict, Verdict::unknown) << report(model, result);
  EXPECT_EQ(result.bound, Bound::seconds_max);
}

// States of 256 ResNet-50 ranks are megabytes each: an initial state that alone passes the
// memory bound ends the search before its first transition, instead of after a few more copies.
TEST(CheckerLimits, AnInitialStateOverTheMemoryBoundIsUnknownAtOnce) {
  const System model(step_job(networks::resnet50(1000.0), config(designs::DesignKind::depcha, 2)),
                     256);
  ExploreLimits limits{1'000'000, 60.0};
  limits.bytes_max = 1u << 20;
  const Result result = explore(model, limits);
  ASSERT_EQ(result.verdict, Verdict::unknown) << report(model, result);
  EXPECT_EQ(result.bound, Bound::bytes_max);
  EXPECT_EQ(result.stats.transitions, 0u);
}

TEST(CheckerLimits, ARankCountTheJobDoesNotHaveIsRefused) {
  EXPECT_THROW(System(allreduce_counts(1, 1), 3), std::invalid_argument);
  EXPECT_THROW(
      System(step_job(networks::mlp(1, 2, 1.0), config(designs::DesignKind::depcha, 2)), 0),
      std::invalid_argument);
}

}  // namespace
}  // namespace ordo::checker::testing
