// run_steps on real ranks: every design of tested_designs.hpp trains a few steps and each rank
// compares every pulled gradient with the exact sum over ranks.
#include <gtest/gtest.h>

#include "networks.hpp"
#include "runtime/comm/mpi/node_layout.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/kvstore/step_run.hpp"
#include "tested_designs.hpp"
#include "tests/comm/mpi_env.hpp"

namespace ordo::kvstore::mpi_test {
namespace {

StepRunOptions untimed(std::uint32_t steps) {
  StepRunOptions o;
  o.steps = steps;
  o.include_init = true;
  o.compute_time_scale = 0.0;  // no simulated device time: these runs check values only
  return o;
}

void expect_exact(const networks::Network& network, const designs::DesignConfig& config,
                  std::uint32_t steps) {
  comm::MpiWorld world(comm::test::runtime(), designs::step_comms(config));
  const StepRunResult r = run_steps(network, config, world, untimed(steps));
  EXPECT_TRUE(r.weights_initialised) << designs::describe(config);
  EXPECT_EQ(r.keys_checked, steps * networks::param_count(network)) << designs::describe(config);
  EXPECT_EQ(r.keys_wrong, 0u) << designs::describe(config);
  EXPECT_EQ(r.step_ms.size(), steps) << designs::describe(config);
}

class RunSteps : public ::testing::TestWithParam<designs::DesignConfig> {};

TEST_P(RunSteps, KeysFromOneElementToOneMiBSumExactly) {
  expect_exact(keys_network("sizes", small_key_counts), GetParam(), 3);
}

TEST_P(RunSteps, BranchesFinishingInAnyOrderSumExactly) {
  // Several steps, so that backward timings (and the order gradients become ready in) vary.
  expect_exact(branching_network(), GetParam(), 8);
}

INSTANTIATE_TEST_SUITE_P(SafeDesigns, RunSteps, ::testing::ValuesIn(safe_designs()),
                         [](const auto& p) { return test_name(p.param); });

TEST(RunStepsSharded, BlocksSumExactlyAndGatherIntoEveryWeight) {
  designs::DesignConfig config;
  config.kind = designs::DesignKind::sharded;
  config.shards = comm::test::runtime().world_size();
  for (const designs::BufferMode buffers :
       {designs::BufferMode::in_place, designs::BufferMode::copy}) {
    config.buffers = buffers;
    expect_exact(keys_network("sizes", small_key_counts), config, 3);
    expect_exact(branching_network(), config, 8);
  }
}

TEST(RunStepsHierarchical, PhasesSumExactlyOnTheNodes) {
  // The nodes MPI reports where there are several (the emulated cluster), else two halves of the
  // ranks standing in for two nodes.
  const comm::NodeLayout layout = comm::node_layout(comm::test::runtime());
  designs::DesignConfig config;
  config.kind = designs::DesignKind::hierarchical;
  const std::uint32_t size = comm::test::runtime().world_size();
  config.nodes = layout.nodes > 1 ? layout.nodes : 2;
  config.node_ranks = layout.nodes > 1 ? layout.node_ranks : size / 2;
  RecordProperty("layout", std::to_string(layout.nodes) + "x" + std::to_string(layout.node_ranks));
  for (const designs::BufferMode buffers :
       {designs::BufferMode::in_place, designs::BufferMode::copy}) {
    config.buffers = buffers;
    expect_exact(keys_network("sizes", small_key_counts), config, 3);
    expect_exact(branching_network(), config, 8);
  }
}

// Steps not closed by a wait for all: each step's allreduces and updates run on into the next
// step's forward on real ranks, and the weights at the end hold every step's exact sum.
TEST(RunStepsOverlapped, ChainedDesignsCarryEveryStepsSumIntoTheWeights) {
  for (const designs::DesignConfig& config :
       {depcha_config(2), priority_config(4 << 10), fused_config(16 << 10)}) {
    for (const networks::Network& network :
         {keys_network("sizes", small_key_counts), branching_network()}) {
      comm::MpiWorld world(comm::test::runtime(), designs::step_comms(config));
      StepRunOptions options = untimed(6);
      options.overlap = true;
      const StepRunResult r = run_steps(network, config, world, options);
      EXPECT_EQ(r.keys_checked, 6 * networks::param_count(network)) << designs::describe(config);
      EXPECT_EQ(r.keys_wrong, 0u) << designs::describe(config) << " on " << network.name;
    }
  }
}

TEST(RunStepsNaive, OneKeyPerStepSumsExactly) {
  // With a single key each step issues exactly one collective and ends with a wait for all ops,
  // so no schedule can put two collectives in different orders on different ranks (see
  // tested_designs.hpp). Two comm threads: even then there is nothing to reorder.
  designs::DesignConfig config;
  config.kind = designs::DesignKind::naive;
  config.comm_threads = 2;
  expect_exact(keys_network("one_key", {256 * 1024}), config, 4);
}

}  // namespace
}  // namespace ordo::kvstore::mpi_test
