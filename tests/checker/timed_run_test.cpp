// The timed run (checker/timing): durations added up by the engine rules' own schedule, on
// programs whose time is known by hand, and the link model's formulas.
#include "checker/timing/timed_run.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "runtime/designs/step_builder.hpp"
#include "runtime/networks/network.hpp"
#include "tests/checker/jobs.hpp"

namespace ordo::checker::timing {
namespace {

// `n` compute ops of `cost_us` on a pool of `threads`, each writing its own var, then a wait.
dag::Job independent_ops(std::uint32_t n, double cost_us, std::uint32_t threads) {
  dag::Job job;
  job.comms = {{"world", std::nullopt}};
  dag::Program& p = job.programs.emplace_back();
  p.name = "step";
  p.pools = {{"compute", threads, dag::PoolKind::fifo}};
  for (std::uint32_t i = 0; i < n; ++i) {
    p.vars.push_back({"v" + std::to_string(i), dag::VarKind::tensor, 4, dag::DType::f32});
    dag::Op op;
    op.name = "op" + std::to_string(i);
    op.writes = {i};
    op.cost_us = cost_us;
    p.ops.push_back(op);
    p.main.emplace_back(dag::SubmitAction{i});
  }
  p.main.emplace_back(dag::WaitForAllAction{});
  return job;
}

TEST(TimedRun, IndependentOpsShareThePoolsThreads) {
  TimedOptions o;
  EXPECT_DOUBLE_EQ(timed_run(independent_ops(4, 10.0, 1), o).total_us, 40.0);
  EXPECT_DOUBLE_EQ(timed_run(independent_ops(4, 10.0, 2), o).total_us, 20.0);
  EXPECT_DOUBLE_EQ(timed_run(independent_ops(4, 10.0, 8), o).total_us, 10.0);
  const TimedResult r = timed_run(independent_ops(3, 10.0, 2), o);
  EXPECT_DOUBLE_EQ(r.total_us, 20.0);
  EXPECT_DOUBLE_EQ(r.compute_us, 30.0);
  EXPECT_DOUBLE_EQ(r.comm_us, 0.0);
}

TEST(TimedRun, ComputeScaleScalesEveryOpButUpdates) {
  TimedOptions o;
  o.compute_scale = 3.0;
  EXPECT_DOUBLE_EQ(timed_run(independent_ops(2, 10.0, 1), o).total_us, 60.0);
}

TEST(TimedRun, LinkModelFormulas) {
  const LinkModel link{2.0, 100.0};
  const dag::Collective ar{dag::CollectiveKind::allreduce,
                           0,
                           0,
                           1000,
                           dag::DType::f32,
                           dag::Reduction::sum,
                           std::nullopt};
  // 2(p-1) alpha + 2(p-1)/p n/B with n = 4000 bytes: p = 4 gives 12 + 60.
  EXPECT_DOUBLE_EQ(collective_us(ar, 4, link), 12.0 + 60.0);
  EXPECT_DOUBLE_EQ(collective_us(ar, 1, link), 0.0);
  dag::Collective bcast = ar;
  bcast.kind = dag::CollectiveKind::bcast;
  bcast.root = 0;
  EXPECT_DOUBLE_EQ(collective_us(bcast, 8, link), 3 * 2.0 + 40.0);
  dag::Collective barrier = ar;
  barrier.kind = dag::CollectiveKind::barrier;
  barrier.count = 0;
  EXPECT_DOUBLE_EQ(collective_us(barrier, 5, link), 3 * 2.0);
  // A reduce is a bcast's tree run towards the root; a reduce_scatter or an allgather is one
  // half of the allreduce's ring: (p-1) alpha + (p-1)/p n/B, 6 + 30 at p = 4.
  dag::Collective reduce = bcast;
  reduce.kind = dag::CollectiveKind::reduce;
  reduce.reduction = dag::Reduction::sum;
  EXPECT_DOUBLE_EQ(collective_us(reduce, 8, link), 3 * 2.0 + 40.0);
  dag::Collective scatter = ar;
  scatter.kind = dag::CollectiveKind::reduce_scatter;
  EXPECT_DOUBLE_EQ(collective_us(scatter, 4, link), 6.0 + 30.0);
  dag::Collective gather = ar;
  gather.kind = dag::CollectiveKind::allgather;
  gather.reduction = dag::Reduction::none;
  EXPECT_DOUBLE_EQ(collective_us(gather, 4, link), 6.0 + 30.0);
  EXPECT_THROW(check_link({-1.0, 1.0}), std::invalid_argument);
  EXPECT_THROW(check_link({1.0, 0.0}), std::invalid_argument);
}

// One key: backward writes its gradient, then the design sums it. The step is the forward, the
// backward, the allreduce and the update, one after the other, in every design: nothing overlaps.
TEST(TimedRun, OneKeyStepIsItsPartsInSequenceInEveryDesign) {
  const networks::Network net = testing::one_key();  // forward 1 us, backward 1 us, 4 floats
  TimedOptions o;
  o.ranks = 4;
  o.link = {10.0, 16.0};
  // 2*3*10 + 2*3/4*16/16 = 60 + 1.5 microseconds.
  const double allreduce = 61.5;
  for (const designs::DesignKind kind :
       {designs::DesignKind::funnel, designs::DesignKind::depcha, designs::DesignKind::fused,
        designs::DesignKind::nonblocking}) {
    designs::DesignConfig c;
    c.kind = kind;
    const TimedResult r = timed_run(designs::build_step_job(net, c, {}), o);
    SCOPED_TRACE(designs::describe(c));
    EXPECT_NEAR(r.total_us, 1.0 + 1.0 + allreduce, 0.01);  // the update's cost is ~0
    EXPECT_DOUBLE_EQ(r.comm_us, allreduce);
  }
}

// Collectives share the link: two keys' allreduces take twice one, even on two comm threads.
TEST(TimedRun, CollectivesQueueOnTheLink) {
  TimedOptions o;
  o.ranks = 2;
  o.link = {0.0, 1.0};  // bandwidth only: an allreduce of 16 bytes at 2 ranks takes 16 us
  designs::DesignConfig c;
  c.kind = designs::DesignKind::naive;
  const TimedResult r = timed_run(designs::build_step_job(testing::branches(), c, {}), o);
  EXPECT_DOUBLE_EQ(r.comm_us, 32.0);
  EXPECT_GE(r.total_us, 32.0);
}

// Fewer messages: at many ranks the start-ups dominate, and one bucket beats one allreduce per key.
TEST(TimedRun, FusedBeatsDepchaWhereStartUpsDominate) {
  const networks::Network net = networks::mlp(4, 8, 1.0);
  TimedOptions o;
  o.ranks = 256;
  o.link = {10.0, 1000.0};
  designs::DesignConfig depcha;
  designs::DesignConfig fused;
  fused.kind = designs::DesignKind::fused;
  const double per_key = timed_run(designs::build_step_job(net, depcha, {}), o).total_us;
  const double bucketed = timed_run(designs::build_step_job(net, fused, {}), o).total_us;
  EXPECT_LT(bucketed * 4, per_key);
}

// hierarchical's leader at 2 nodes of 2: the reduce and the bcast on its node's communicator
// take the node's link at 2 members, the allreduce on the leaders' one the network at 2 members;
// comm_us is the network's alone.
TEST(TimedRun, NodeCommunicatorsTakeTheNodesLink) {
  designs::DesignConfig c;
  c.kind = designs::DesignKind::hierarchical;
  c.nodes = 2;
  c.node_ranks = 2;
  dag::Job job = designs::build_step_job(testing::one_key(), c, {});
  job.programs = {job.programs.at(0)};  // node 0's leader
  TimedOptions o;
  o.ranks = 4;
  o.node_ranks = 2;
  o.link = {10.0, 16.0};      // allreduce of 16 bytes at 2: 2*10 + 16/16 = 21 us
  o.node_link = {1.0, 16.0};  // reduce and bcast at 2: 1 + 1 = 2 us each
  const TimedResult r = timed_run(job, o);
  EXPECT_DOUBLE_EQ(r.comm_us, 21.0);
  EXPECT_NEAR(r.total_us, 1.0 + 1.0 + 2.0 + 21.0 + 2.0, 0.01);
  o.ranks = 1;  // compute alone: every call free, member lists or not
  EXPECT_NEAR(timed_run(job, o).total_us, 2.0, 0.01);
}

TEST(TimedRun, RefusesWhatItCannotTime) {
  dag::Job two = independent_ops(1, 1.0, 1);
  two.programs.push_back(two.programs[0]);
  two.programs[1].name = "other";
  EXPECT_THROW(timed_run(two, {}), std::invalid_argument);
  TimedOptions o;
  o.ranks = 0;
  EXPECT_THROW(timed_run(independent_ops(1, 1.0, 1), o), std::invalid_argument);
  o.ranks = 2;
  o.compute_scale = std::nan("");
  EXPECT_THROW(timed_run(independent_ops(1, 1.0, 1), o), std::invalid_argument);
}

}  // namespace
}  // namespace ordo::checker::timing
