// Known answers for the hierarchical design (the paper's phases): a reduce to the node's leader,
// an allreduce among the leaders, a bcast in the node, with each communicator's calls in one
// chain, is safe on every node layout tried; without the chain on its bcasts (what a hurried
// implementer writes: "the bcast only needs its key's sum") a rank that is no leader may issue a
// bcast beside the next reduce, and the checker refutes it with a witness that replays.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "checker/search/explore.hpp"
#include "runtime/designs/step_builder.hpp"
#include "tests/checker/expect_replays.hpp"
#include "tests/checker/jobs.hpp"

namespace ordo::checker::testing {
namespace {

using designs::DesignKind;

constexpr ExploreLimits hierarchical_limits{4'000'000, 200.0};

designs::DesignConfig hierarchical(std::uint32_t nodes, std::uint32_t node_ranks,
                                   bool order_guard) {
  designs::DesignConfig c = config(DesignKind::hierarchical, 2);
  c.nodes = nodes;
  c.node_ranks = node_ranks;
  c.order_guard = order_guard;
  return c;
}

std::size_t count_ops(const dag::Program& program, const std::string& what) {
  return static_cast<std::size_t>(
      std::count_if(program.ops.begin(), program.ops.end(),
                    [&](const dag::Op& op) { return op.name.rfind(what + ".", 0) == 0; }));
}

void expect_hierarchical_safe(const dag::Job& job) {
  ASSERT_TRUE(job.ranks);
  const System model(job, *job.ranks);
  const Result result = explore(model, hierarchical_limits);
  EXPECT_EQ(result.verdict, Verdict::safe) << report(model, result);
  EXPECT_GT(result.stats.states, result.stats.depth_max);  // the search did branch
}

TEST(CheckerHierarchical, EachNodeHasALeaderProgramAndOneForItsOtherRanks) {
  const dag::Job job = step_job(branches(), hierarchical(2, 2, true));
  ASSERT_EQ(job.ranks, 4u);
  ASSERT_EQ(job.comms.size(), 4u);  // world, node0, node1, leaders
  EXPECT_EQ(job.comms[1].members, (std::vector<dag::Rank>{0, 1}));
  EXPECT_EQ(job.comms[2].members, (std::vector<dag::Rank>{2, 3}));
  EXPECT_EQ(job.comms[3].members, (std::vector<dag::Rank>{0, 2}));
  ASSERT_EQ(job.programs.size(), 4u);
  for (dag::Rank r = 0; r < 4; ++r) {
    const dag::Program* p = dag::program_of(job, r);
    ASSERT_NE(p, nullptr) << "rank " << r;
    const bool leader = r % 2 == 0;
    EXPECT_EQ(count_ops(*p, "reduce"), 2u) << p->name;
    EXPECT_EQ(count_ops(*p, "allreduce"), leader ? 2u : 0u) << p->name;
    EXPECT_EQ(count_ops(*p, "bcast"), 2u) << p->name;
    for (const dag::Op& op : p->ops) {
      if (!op.collective || op.name.rfind("init.", 0) == 0) continue;
      const dag::CommId want = op.collective->kind == dag::CollectiveKind::allreduce
                                   ? designs::leaders_comm(hierarchical(2, 2, true))
                                   : designs::node_comm(r / 2);
      EXPECT_EQ(op.collective->comm, want) << p->name << " " << op.name;
    }
  }
}

TEST(CheckerHierarchical, SafeOnTwoNodesOfTwo) {
  expect_hierarchical_safe(step_job(one_key(), hierarchical(2, 2, true)));
}

TEST(CheckerHierarchical, SafeOnBranchesWhereLeadersAndNodesOverlap) {
  // Two nodes of one rank (every rank a leader) and one node of two (one leader, alone among the
  // leaders): the leaders' chain and the node's chain run on two comm threads side by side.
  expect_hierarchical_safe(step_job(branches(), hierarchical(2, 1, true)));
  expect_hierarchical_safe(step_job(branches(), hierarchical(1, 2, true)));
}

TEST(CheckerHierarchical, BcastsOutsideTheNodeChainAreRefutedAndTheWitnessReplays) {
  // On the rank that is no leader, a's bcast is ready once a's reduce is done; the leader's waits
  // for a's allreduce. Two comm threads let the first rank issue a's bcast while b's reduce is in
  // flight, or before it, and its leader the other way round.
  const dag::Job job = step_job(branches(), hierarchical(1, 2, false));
  const System model(job, 2);
  const Result result = explore(model, hierarchical_limits);
  ASSERT_EQ(result.verdict, Verdict::unsafe) << report(model, result);
  expect_replays(job, 2, result);
}

TEST(CheckerHierarchical, NeedsItsLayout) {
  EXPECT_THROW(step_job(branches(), hierarchical(0, 2, true)), std::invalid_argument);
  EXPECT_THROW(step_job(branches(), hierarchical(2, 0, true)), std::invalid_argument);
}

}  // namespace
}  // namespace ordo::checker::testing
