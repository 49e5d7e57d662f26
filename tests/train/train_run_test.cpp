// Training for real on Fashion-MNIST (Debian's package), two simulated ranks in one process, the
// step program run by the engine and a KVStore design: the loss falls, the test accuracy ends far
// above chance, every rank ends with the same weights bit for bit, and every safe design gives
// the same weights (a sum of two floats does not depend on its order).
#include "runtime/train/train_run.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/data/labelled_images.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/networks/network_builder.hpp"
#include "tests/train/sim_ranks.hpp"

namespace ordo::train {
namespace {

namespace op = networks::op;

networks::Network small_mlp() {
  networks::NetworkBuilder b("mlp784", {784});
  const auto h = b.add("hidden", {}, {op::dense(64), op::relu()});
  b.add("out", {h}, {op::dense(10)});
  return b.build(1.0);
}

double mean(const std::vector<double>& v, std::size_t from, std::size_t to) {
  return std::accumulate(v.begin() + static_cast<std::ptrdiff_t>(from),
                         v.begin() + static_cast<std::ptrdiff_t>(to), 0.0) /
         static_cast<double>(to - from);
}

TEST(TrainRun, LearnsFashionMnistWithEqualWeightsOnEveryRank) {
  const data::LabelledImages train = data::first_examples(fashion(true), 8192);
  const data::LabelledImages test = data::first_examples(fashion(false), 2000);
  designs::DesignConfig config;
  config.kind = designs::DesignKind::depcha;
  TrainOptions options;
  options.batch = 32;
  options.epochs = 1;
  options.lr = LrSchedule{0.02, 10, {}, 0.1};
  const std::vector<TrainResult> r = train_on_ranks(small_mlp(), config, train, &test, options, 2);
  ASSERT_EQ(r[0].losses.size(), 128u);  // 4096 examples per rank, batches of 32
  EXPECT_LT(mean(r[0].losses, 118, 128), 0.6 * mean(r[0].losses, 0, 10));
  ASSERT_EQ(r[0].test_accuracy.size(), 1u);
  EXPECT_GT(r[0].test_accuracy[0], 0.7) << "chance is 0.1";
  EXPECT_EQ(r[0].weights, r[1].weights);
  EXPECT_EQ(r[0].test_accuracy, r[1].test_accuracy);
}

TEST(TrainRun, EverySafeDesignGivesTheSameWeights) {
  const data::LabelledImages train = data::first_examples(fashion(true), 1024);
  TrainOptions options;
  options.batch = 16;
  options.steps_max = 8;
  options.evaluate = false;
  std::vector<float> reference;
  for (const designs::DesignKind kind :
       {designs::DesignKind::funnel, designs::DesignKind::concom, designs::DesignKind::depcha,
        designs::DesignKind::fused, designs::DesignKind::nonblocking, designs::DesignKind::sharded,
        designs::DesignKind::hierarchical, designs::DesignKind::priority}) {
    for (const designs::BufferMode buffers :
         {designs::BufferMode::in_place, designs::BufferMode::copy}) {
      designs::DesignConfig config;
      config.kind = kind;
      config.buffers = buffers;
      if (kind == designs::DesignKind::concom) config.comm_threads = 1;
      config.bucket_bytes = 16 << 10;  // fused: LeNet's keys in several buckets
      // sharded: each rank steps half of every key that splits in two (all of LeNet's but the
      // classifier's bias of 10, which does too): the same element-wise update, so the same bits.
      config.shards = 2;
      // hierarchical: one node of both ranks, so a + b is summed once as every design sums it.
      config.nodes = 1;
      config.node_ranks = 2;
      // priority: LeNet's bigger keys in slices of 4 KiB, 8 KiB of them released per push.
      config.slice_bytes = 4 << 10;
      config.credit_bytes = 8 << 10;
      // The designs beyond the paper in place only: their copy form is held to the exact sums by
      // the simulated-rank and MPI step tests, and this test runs under ThreadSanitizer too.
      const bool beyond =
          kind == designs::DesignKind::fused || kind == designs::DesignKind::nonblocking ||
          kind == designs::DesignKind::sharded || kind == designs::DesignKind::hierarchical ||
          kind == designs::DesignKind::priority;
      if (beyond && buffers == designs::BufferMode::copy) continue;
      SCOPED_TRACE(designs::describe(config));
      const std::vector<TrainResult> r =
          train_on_ranks(networks::lenet(10, 1.0), config, train, nullptr, options, 2);
      ASSERT_EQ(r[0].losses.size(), 8u);
      EXPECT_EQ(r[0].weights, r[1].weights);
      if (reference.empty()) reference = r[0].weights;
      EXPECT_EQ(r[0].weights, reference);
    }
  }
}

// The data ops on their own pool load the same batches the main thread would have built: the same
// weights, bit for bit, with the loads overlapping the steps.
TEST(TrainRun, PrefetchOnTheDataPoolTrainsTheSameSteps) {
  const data::LabelledImages train = data::first_examples(fashion(true), 512);
  TrainOptions options;
  options.batch = 16;
  options.epochs = 2;  // the loads cross an epoch boundary
  options.evaluate = false;
  designs::DesignConfig config;
  const std::vector<TrainResult> plain =
      train_on_ranks(networks::lenet(10, 1.0), config, train, nullptr, options, 2);
  config.prefetch = true;
  const std::vector<TrainResult> prefetched =
      train_on_ranks(networks::lenet(10, 1.0), config, train, nullptr, options, 2);
  ASSERT_EQ(prefetched[0].losses.size(), 32u);
  EXPECT_EQ(prefetched[0].losses, plain[0].losses);
  EXPECT_EQ(prefetched[1].weights, plain[1].weights);
}

// Decay after whole epochs is decay at those epochs' first steps; a schedule that is wrong ends
// the run before any step.
TEST(TrainRun, LearningRateDecaysAfterTheGivenEpochs) {
  const data::LabelledImages train = data::first_examples(fashion(true), 128);
  TrainOptions options;
  options.batch = 16;  // 4 steps per epoch on each of 2 ranks
  options.epochs = 2;
  options.evaluate = false;
  options.lr = LrSchedule{0.05, 0, {}, 0.2};
  const designs::DesignConfig config;
  const auto run = [&](const TrainOptions& o) {
    return train_on_ranks(small_mlp(), config, train, nullptr, o, 2)[0].weights;
  };
  const std::vector<float> constant = run(options);
  TrainOptions by_epoch = options;
  by_epoch.lr_decay_epochs = {1};
  TrainOptions by_step = options;
  by_step.lr.milestones = {4};
  const std::vector<float> decayed = run(by_epoch);
  EXPECT_EQ(decayed, run(by_step));
  EXPECT_NE(decayed, constant);
  by_epoch.lr.milestones = {8};  // on one rank epoch 1 starts at step 8: one milestone twice
  designs::DesignConfig one;
  comm::sim::SimWorld world(1, designs::step_comms(one));
  EXPECT_THROW(train_rank(small_mlp(), one, world.rank(0), train, nullptr, by_epoch, &world),
               std::invalid_argument);
}

TEST(TrainRun, RefusesANetworkForOtherImages) {
  const data::LabelledImages train = data::first_examples(fashion(true), 256);
  designs::DesignConfig config;
  comm::sim::SimWorld world(1, designs::step_comms(config));
  EXPECT_THROW(train_rank(networks::cifar_resnet(20, 10, {3, 32, 32}, 1.0), config, world.rank(0),
                          train, nullptr, TrainOptions{}, &world),
               std::invalid_argument);
}

}  // namespace
}  // namespace ordo::train
