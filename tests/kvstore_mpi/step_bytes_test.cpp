// Every key's bytes on every rank after init and after each step: equal to the exact sum (or to
// rank 0's initial weight) computed locally, and equal across ranks by a collective hash check.
#include <gtest/gtest.h>

#include "networks.hpp"
#include "rank_checks.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "step_rig.hpp"
#include "tested_designs.hpp"
#include "tests/comm/mpi_env.hpp"

namespace ordo::kvstore::mpi_test {
namespace {

std::string key_label(const designs::DesignConfig& config, const designs::KeyVars& k, const char* what) {
  return designs::describe(config) + " " + what + " of key " + std::to_string(k.key) + " '" + k.name +
         "' (" + std::to_string(k.count) + " x f32) on rank " +
         std::to_string(comm::test::world().rank());
}

// Rank 0's initial weight of every key, computed once per run: the largest key's pattern is
// 64 MiB.
std::vector<std::vector<std::byte>> rank0_weights(const StepRig& rig) {
  std::vector<std::vector<std::byte>> weights;
  for (const designs::KeyVars& k : rig.keys()) weights.push_back(weight_pattern(0, k.key, k.count));
  return weights;
}

// Every weight equals rank 0's initial pattern, here and on every rank.
void expect_rank0_weights(StepRig& rig, const designs::DesignConfig& config,
                          const std::vector<std::vector<std::byte>>& rank0) {
  for (std::size_t i = 0; i < rig.keys().size(); ++i) {
    const designs::KeyVars& k = rig.keys()[i];
    const std::span<const std::byte> w = rig.bytes(k.weight);
    EXPECT_EQ(f32_difference(w, rank0[i], key_label(config, k, "weight")), "");
    EXPECT_TRUE(same_on_every_rank(w)) << key_label(config, k, "weight");
  }
}

// Every gradient equals the exact sum of `step`, here and on every rank.
void expect_summed_gradients(StepRig& rig, const designs::DesignConfig& config, std::uint32_t step) {
  const std::uint32_t ranks = comm::test::world().size();
  for (const designs::KeyVars& k : rig.keys()) {
    const std::span<const std::byte> g = rig.bytes(k.grad);
    EXPECT_EQ(f32_difference(g, bytes_of(expected_sum(ranks, k.key, k.count, step)),
                             key_label(config, k, "gradient") + " in step " + std::to_string(step)),
              "");
    EXPECT_TRUE(same_on_every_rank(g)) << key_label(config, k, "gradient");
  }
}

void run_and_check(const networks::Network& network, const designs::DesignConfig& config, std::uint32_t steps) {
  comm::MpiWorld world(comm::test::runtime(), designs::step_comms(config));
  StepRig rig(network, config, world);
  const std::vector<std::vector<std::byte>> rank0 = rank0_weights(rig);
  rig.init();
  expect_rank0_weights(rig, config, rank0);
  for (std::uint32_t s = 0; s < steps; ++s) {
    rig.step(s);
    expect_summed_gradients(rig, config, s);
  }
  // The updates read the gradients and write nothing into the weights' bytes, so the weights
  // must still be rank 0's: a stray write by a copy or a collective would show here.
  expect_rank0_weights(rig, config, rank0);
}

class StepBytes : public ::testing::TestWithParam<designs::DesignConfig> {};

TEST_P(StepBytes, EveryKeyIsTheExactSumOnEveryRank) {
  run_and_check(keys_network("sizes", small_key_counts), GetParam(), 3);
}

TEST_P(StepBytes, BranchingNetworkIsTheExactSumOnEveryRank) {
  run_and_check(branching_network(), GetParam(), 4);
}

INSTANTIATE_TEST_SUITE_P(SafeDesigns, StepBytes, ::testing::ValuesIn(safe_designs()),
                         [](const auto& p) { return test_name(p.param); });
INSTANTIATE_TEST_SUITE_P(CopyBuffers, StepBytes, ::testing::ValuesIn(copy_designs()),
                         [](const auto& p) { return test_name(p.param); });

// The tests with a 64 MiB key (weight and gradient per rank, and a buffer with copy buffers), so
// that the largest size is covered once per design without making every test pay for it.
TEST(StepBytesLargest, SixtyFourMiBKeyUnderEveryDesign) {
  const networks::Network network = keys_network("largest", {largest_key_count});
  for (const designs::DesignConfig& config : {funnel_config(), concom_config(), depcha_config(2)}) {
    run_and_check(network, config, 2);
  }
}

// The paper's copies at the largest size: one design suffices, since the copy ops are the same
// in all three and the smaller keys above run every design with them.
TEST(StepBytesLargest, SixtyFourMiBKeyWithCopyBuffers) {
  run_and_check(keys_network("largest", {largest_key_count}), with_copy(depcha_config(2)), 2);
}

}  // namespace
}  // namespace ordo::kvstore::mpi_test
