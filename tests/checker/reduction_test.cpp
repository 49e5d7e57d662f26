// Partial-order and symmetry reduction keep every verdict: each job is explored with every
// combination of the two, and all four answers must agree on verdict and property, with the
// reduced searches never visiting more states and every unsafe witness replaying on the runtime.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "checker/search/explore.hpp"
#include "runtime/designs/step_builder.hpp"
#include "tests/checker/jobs.hpp"
#include "tests/checker/replay.hpp"

namespace ordo::checker::testing {
namespace {

using designs::DesignKind;

constexpr ExploreLimits reduction_limits{3'000'000, 300.0};

struct Case {
  std::string name;
  dag::Job job;
  std::uint32_t ranks;
};

dag::Job with_fig4_init(DesignKind kind, std::uint32_t comm_threads) {
  designs::DesignConfig c = config(kind, comm_threads);
  c.init = designs::InitKind::fig4;
  return designs::build_step_job(one_key(), c, {.include_init = true, .steps = 1});
}

dag::Job concom(std::uint32_t ncomm, std::uint32_t outstanding, std::uint32_t threads) {
  designs::DesignConfig c = config(DesignKind::concom, threads);
  c.ncomm = ncomm;
  c.outstanding = outstanding;
  return step_job(networks::mlp(1, 2, 1.0), c);
}

std::vector<Case> cases() {
  return {
      {"naive_branches", step_job(branches(), config(DesignKind::naive, 1)), 2},
      {"naive_two_threads", step_job(branches(), config(DesignKind::naive, 2)), 2},
      {"funnel_two_keys_2", step_job(networks::mlp(1, 2, 1.0), config(DesignKind::funnel, 2)), 2},
      {"funnel_two_keys_3", step_job(networks::mlp(1, 2, 1.0), config(DesignKind::funnel, 2)), 3},
      {"depcha_two_keys_2", step_job(networks::mlp(1, 2, 1.0), config(DesignKind::depcha, 2)), 2},
      {"depcha_one_key_3", step_job(one_key(), config(DesignKind::depcha, 2)), 3},
      {"concom_thread_rule", concom(1, 2, 2), 2},
      {"concom_safe", concom(2, 2, 2), 2},
      {"fig4_init_two_threads", with_fig4_init(DesignKind::depcha, 2), 2},
      {"extra_allreduce", allreduce_counts(2, 1), 2},
      {"equal_allreduces", allreduce_counts(2, 2), 2},
      {"barrier_cycle", barrier_cycle(), 3},
      {"barrier_chain", barrier_chain(), 3},
  };
}

class ReductionAgreement : public ::testing::TestWithParam<std::size_t> {};

TEST_P(ReductionAgreement, EveryCombinationGivesTheSameAnswer) {
  const Case c = cases().at(GetParam());
  const System model(c.job, c.ranks);
  const Result full = explore(model, reduction_limits, {.partial_order = false, .symmetry = false});
  ASSERT_NE(full.verdict, Verdict::unknown) << c.name << '\n' << report(model, full);
  for (const Reductions r :
       {Reductions{true, false}, Reductions{false, true}, Reductions{true, true}}) {
    SCOPED_TRACE(c.name + (r.partial_order ? " +por" : "") + (r.symmetry ? " +symmetry" : ""));
    const Result reduced = explore(model, reduction_limits, r);
    EXPECT_EQ(reduced.verdict, full.verdict) << report(model, reduced);
    EXPECT_EQ(reduced.property, full.property) << report(model, reduced);
    if (full.verdict == Verdict::safe) {
      EXPECT_LE(reduced.stats.states, full.stats.states);
    }
    if (reduced.verdict != Verdict::unsafe) continue;
    exec::ControlledRun run(c.job, c.ranks);
    const std::optional<exec::RunOutcome> end = replay(run, reduced.witness);
    ASSERT_TRUE(end) << "the witness does not end the run";
    EXPECT_NE(end->end, exec::RunEnd::finished) << end->report;
  }
}

INSTANTIATE_TEST_SUITE_P(Jobs, ReductionAgreement, ::testing::Range<std::size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& param) {
                           return cases().at(param.param).name;
                         });

// Out of reach of the plain search (it ran out of two minutes), decided with the reductions.
TEST(Reductions, DepchaOnTwoKeysIsSafeAtThreeRanks) {
  const dag::Job job = step_job(networks::mlp(1, 2, 1.0), config(DesignKind::depcha, 2));
  for (const std::uint32_t ranks : {3u}) {
    const System model(job, ranks);
    const Result result = explore(model, reduction_limits);
    EXPECT_EQ(result.verdict, Verdict::safe) << report(model, result);
    EXPECT_TRUE(result.stats.partial_order);
    EXPECT_TRUE(result.stats.symmetry);
    EXPECT_GT(result.stats.transitions_deferred, 0u);
  }
}

TEST(Reductions, SymmetryIsOffWhenRanksRunDifferentPrograms) {
  const System model(allreduce_counts(2, 1), 2);
  EXPECT_FALSE(model.ranks_interchangeable());
  EXPECT_FALSE(explore(model, reduction_limits).stats.symmetry);
  const System same(step_job(one_key(), config(DesignKind::depcha, 2)), 2);
  EXPECT_TRUE(same.ranks_interchangeable());
}

}  // namespace
}  // namespace ordo::checker::testing
