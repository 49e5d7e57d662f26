// Theorem 4 (docs/symbolic.md): which designs' step programs are in the class that stays safe for
// runs of any length, closed or overlapped, and that stretch_chains names each stretch's var.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "checker/symbolic/stretch_chains.hpp"
#include "runtime/designs/step_builder.hpp"
#include "tests/checker/jobs.hpp"

namespace ordo::checker::testing {
namespace {

using designs::DesignKind;

std::optional<std::vector<std::string>> chains_of(DesignKind kind, bool overlap) {
  designs::DesignConfig c = config(kind, 2);
  c.shards = 2;
  c.nodes = 1;
  c.node_ranks = 2;
  c.slice_bytes = 8;
  designs::StepOptions options;
  options.include_init = true;
  options.steps = 2;
  options.overlap = overlap;
  const dag::Job job = designs::build_step_job(branches(), c, options);
  return symbolic::stretch_chains(job.programs.at(0));
}

TEST(RunsOfAnyLength, TheChainedDesignsAreInTheClassClosedAndOverlapped) {
  for (const bool overlap : {false, true}) {
    for (const DesignKind kind :
         {DesignKind::depcha, DesignKind::fused, DesignKind::sharded, DesignKind::priority}) {
      SCOPED_TRACE(std::string(designs::to_string(kind)) + (overlap ? " overlapped" : ""));
      const auto chains = chains_of(kind, overlap);
      ASSERT_TRUE(chains);
      // The init's chain, then one per step, or one for both steps when they overlap.
      EXPECT_EQ(chains->size(), overlap ? 2u : 3u);
      EXPECT_EQ(chains->front(), "init.chain");
    }
  }
}

TEST(RunsOfAnyLength, DesignsOrderedOtherwiseAreNot) {
  for (const DesignKind kind : {DesignKind::naive, DesignKind::funnel, DesignKind::concom,
                                DesignKind::nonblocking, DesignKind::hierarchical}) {
    SCOPED_TRACE(designs::to_string(kind));
    EXPECT_FALSE(chains_of(kind, true));
  }
}

TEST(RunsOfAnyLength, AMainThreadCallOrTwoUnchainedOpsBreakTheClass) {
  designs::DesignConfig c = config(DesignKind::priority, 2);
  c.order_guard = false;  // slices of two keys in the priority queue, no var in common
  EXPECT_FALSE(symbolic::stretch_chains(designs::build_step_job(branches(), c, {}).programs.at(0)));
  dag::Program none;  // no call at all: nothing to prove
  EXPECT_FALSE(symbolic::stretch_chains(none));
}

}  // namespace
}  // namespace ordo::checker::testing
