// Known answers for the sharded design (ZeRO): a reduce_scatter per key that splits, an update of
// the rank's block, an allgather, every collective in one chain, is safe at the rank count it is
// written for, by both checkers; without the chain on its allgathers (what a hurried implementer
// writes: "the gather only needs its update") it is refuted with a witness that replays on the
// runtime.
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

constexpr ExploreLimits sharded_limits{2'000'000, 120.0};

designs::DesignConfig sharded(std::uint32_t shards, bool order_guard) {
  designs::DesignConfig c = config(DesignKind::sharded, 2);
  c.shards = shards;
  c.order_guard = order_guard;
  return c;
}

// Two keys that split in two (4 elements each) and one that does not (a bias of 3).
networks::Network two_split_one_not() {
  using networks::Layer;
  return {
      "split",
      {Layer{"a", {{"a.w", 4, dag::DType::f32}}, 1.0, 1.0, {}},
       Layer{"b", {{"b.w", 4, dag::DType::f32}, {"b.bias", 3, dag::DType::f32}}, 1.0, 1.0, {0}}}};
}

std::size_t count_ops(const dag::Job& job, const std::string& what) {
  const auto& ops = job.programs.at(0).ops;
  return static_cast<std::size_t>(std::count_if(ops.begin(), ops.end(), [&](const dag::Op& op) {
    return op.name.rfind(what + ".", 0) == 0;
  }));
}

void expect_sharded_safe(const dag::Job& job) {
  ASSERT_TRUE(job.ranks);
  const System model(job, *job.ranks);
  const Result result = explore(model, sharded_limits);
  EXPECT_EQ(result.verdict, Verdict::safe) << report(model, result);
  EXPECT_GT(result.stats.states, result.stats.depth_max);  // the search did branch
  const symbolic::SymbolicResult r = symbolic::decide(model, {});
  EXPECT_EQ(r.outcome, Outcome::safe) << symbolic::report(model, r);
}

TEST(CheckerSharded, KeysThatSplitAreScatteredUpdatedByBlockAndGathered) {
  const dag::Job job = step_job(two_split_one_not(), sharded(2, true));
  ASSERT_EQ(job.ranks, 2u);  // the program is written for its shards
  EXPECT_EQ(count_ops(job, "reduce_scatter"), 2u);
  EXPECT_EQ(count_ops(job, "update_shard"), 2u);
  EXPECT_EQ(count_ops(job, "allgather"), 2u);
  // The bias does not split in two: summed whole and updated whole by the step.
  EXPECT_EQ(count_ops(job, "allreduce"), 1u);
  EXPECT_EQ(count_ops(job, "update"), 1u);
  for (const dag::Op& op : job.programs.at(0).ops) {
    if (!op.collective) continue;
    const dag::CollectiveKind kind = op.collective->kind;
    if (op.name.rfind("reduce_scatter.", 0) == 0) {
      EXPECT_EQ(kind, dag::CollectiveKind::reduce_scatter);
    }
    if (op.name.rfind("allgather.", 0) == 0) {
      EXPECT_EQ(kind, dag::CollectiveKind::allgather);
    }
  }
  expect_sharded_safe(job);
}

TEST(CheckerSharded, SafeOnBranchesAtTwoAndThreeRanks) {
  expect_sharded_safe(step_job(branches(), sharded(2, true)));
  // At three ranks the keys of 4 do not split: every key falls back to the chained allreduce.
  const dag::Job three = step_job(branches(), sharded(3, true));
  EXPECT_EQ(count_ops(three, "reduce_scatter"), 0u);
  expect_sharded_safe(three);
}

TEST(CheckerSharded, SafeAtAThousandRanksSymbolically) {
  using networks::Layer;
  const networks::Network wide{"wide",
                               {Layer{"a", {{"a.w", 2048, dag::DType::f32}}, 1.0, 1.0, {}},
                                Layer{"b", {{"b.w", 1024, dag::DType::f32}}, 1.0, 1.0, {}},
                                Layer{"join", {}, 1.0, 1.0, {0, 1}}}};
  const dag::Job job = step_job(wide, sharded(1024, true));
  EXPECT_EQ(count_ops(job, "reduce_scatter"), 2u);
  const System model(job, 1024);
  const symbolic::SymbolicResult r = symbolic::decide(model, {});
  EXPECT_EQ(r.outcome, Outcome::safe) << symbolic::report(model, r);
}

TEST(CheckerSharded, AllgathersOutsideTheChainAreRefutedAndTheWitnessReplays) {
  // Two updates run side by side on the compute pool; the rank where b's ends first issues b's
  // allgather first, on the other comm thread, while its peer issues a's.
  const dag::Job job = step_job(branches(), sharded(2, false));
  const System model(job, 2);
  const Result result = explore(model, sharded_limits);
  ASSERT_EQ(result.verdict, Verdict::unsafe) << report(model, result);
  expect_replays(job, 2, result);
  const symbolic::SymbolicResult r = symbolic::decide(model, {});
  EXPECT_EQ(r.outcome, Outcome::unsafe) << symbolic::report(model, r);
}

TEST(CheckerSharded, NeedsItsRankCount) {
  designs::DesignConfig c = sharded(2, true);
  c.shards = 0;
  EXPECT_THROW(step_job(branches(), c), std::invalid_argument);
}

}  // namespace
}  // namespace ordo::checker::testing
