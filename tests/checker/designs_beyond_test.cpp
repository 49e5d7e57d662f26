// Known answers for the designs beyond the paper, from both checkers: fused (buckets chained like
// depcha's keys) and nonblocking (one thread issuing non-blocking allreduces after the main thread
// waited for each gradient) are safe; the versions a hurried implementer writes, fused without its
// chain on two comm threads and nonblocking without its wait on a network whose backward branches
// run side by side, are refuted with witnesses that replay on the runtime.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "checker/search/explore.hpp"
#include "checker/symbolic/decide.hpp"
#include "runtime/designs/step_builder.hpp"
#include "tests/checker/expect_replays.hpp"
#include "tests/checker/jobs.hpp"

namespace ordo::checker::testing {
namespace {

using designs::DesignKind;
using Outcome = symbolic::SymbolicResult::Outcome;

constexpr ExploreLimits designs_beyond_limits{2'000'000, 120.0};

designs::DesignConfig fused(std::uint64_t bucket_bytes, bool order_guard) {
  designs::DesignConfig c = config(DesignKind::fused, 2);
  c.bucket_bytes = bucket_bytes;
  c.order_guard = order_guard;
  return c;
}

designs::DesignConfig nonblocking(bool order_guard) {
  designs::DesignConfig c = config(DesignKind::nonblocking, 2);
  c.order_guard = order_guard;
  return c;
}

std::size_t count_collectives(const dag::Job& job) {
  const auto& ops = job.programs.at(0).ops;
  return static_cast<std::size_t>(std::count_if(
      ops.begin(), ops.end(), [](const dag::Op& op) { return op.collective.has_value(); }));
}

void expect_beyond_safe(const dag::Job& job, std::uint32_t ranks) {
  const System model(job, ranks);
  const Result result = explore(model, designs_beyond_limits);
  EXPECT_EQ(result.verdict, Verdict::safe) << report(model, result);
  EXPECT_GT(result.stats.states, result.stats.depth_max);  // the search did branch
  const symbolic::SymbolicResult r = symbolic::decide(System(job, 1024), {});
  EXPECT_EQ(r.outcome, Outcome::safe) << symbolic::report(System(job, 1024), r);
}

// Explicit search finds the violation and its witness ends the same way on the runtime.
void expect_refuted(const dag::Job& job, Property property) {
  const System model(job, 2);
  const Result result = explore(model, designs_beyond_limits);
  ASSERT_EQ(result.verdict, Verdict::unsafe) << report(model, result);
  EXPECT_EQ(result.property, property) << report(model, result);
  expect_replays(job, 2, result);
  const symbolic::SymbolicResult r = symbolic::decide(System(job, 64), {});
  EXPECT_EQ(r.outcome, Outcome::unsafe) << symbolic::report(System(job, 64), r);
}

TEST(CheckerDesignsBeyond, FusedBucketsAreOneAllreduceEachAndSafe) {
  const networks::Network net = networks::mlp(2, 2, 1.0);  // four keys of 16 or 8 bytes
  const dag::Job one_each = step_job(net, fused(1, true));
  const dag::Job all_in_one = step_job(net, fused(25 << 20, true));
  EXPECT_EQ(count_collectives(one_each), 4u);
  EXPECT_EQ(count_collectives(all_in_one), 1u);
  expect_beyond_safe(one_each, 2);
  expect_beyond_safe(all_in_one, 2);
  expect_beyond_safe(step_job(branches(), fused(16, true)), 3);
}

TEST(CheckerDesignsBeyond, FusedWithoutItsChainIsRefuted) {
  // One key per bucket and two comm threads: the second bucket's allreduce may be taken by the
  // other thread and issued first, or while the first is in flight.
  const dag::Job job = step_job(networks::mlp(1, 2, 1.0), fused(1, false));
  const System model(job, 2);
  const Result result = explore(model, designs_beyond_limits);
  ASSERT_EQ(result.verdict, Verdict::unsafe) << report(model, result);
  expect_refuted(job, *result.property);
  // One bucket holds every key: nothing is left to reorder, guard or not.
  expect_beyond_safe(step_job(networks::mlp(1, 2, 1.0), fused(25 << 20, false)), 2);
}

TEST(CheckerDesignsBeyond, NonblockingIsSafeOnBranchesAtTwoAndThreeRanks) {
  const dag::Job job = step_job(branches(), nonblocking(true));
  expect_beyond_safe(job, 2);
  expect_beyond_safe(job, 3);
  // Non-blocking calls: the comm pool's one thread is free again as soon as it issued.
  for (const dag::Op& op : job.programs.at(0).ops) {
    if (op.collective) {
      EXPECT_EQ(op.kind, dag::OpKind::async_collective) << op.name;
    }
  }
  EXPECT_EQ(job.programs.at(0).pools.at(designs::comm_pool).threads, 1u);
}

TEST(CheckerDesignsBeyond, NonblockingWithoutTheWaitMismatchesOnBranches) {
  // a's and b's backward ops run side by side: the rank where b finishes first issues b's
  // allreduce first.
  expect_refuted(step_job(branches(), nonblocking(false)), Property::p1_order);
}

TEST(CheckerDesignsBeyond, NonblockingWithoutTheWaitIsSafeWhenBackwardIsAChain) {
  // A chain's backward ops run one after the other, so gradients are ready in one order anyway:
  // the guard is what makes the design safe on every network, not on this one.
  using networks::Layer;
  const networks::Network chain{"chain",
                                {Layer{"a", {{"a.w", 4, dag::DType::f32}}, 1.0, 1.0, {}},
                                 Layer{"b", {{"b.w", 4, dag::DType::f32}}, 1.0, 1.0, {0}}}};
  expect_beyond_safe(step_job(chain, nonblocking(false)), 2);
}

}  // namespace
}  // namespace ordo::checker::testing
