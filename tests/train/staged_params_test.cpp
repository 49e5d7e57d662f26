// The host path that `--device cuda --comm-path host` takes (parameters apart from the KVStore's
// buffers, the gradients copied out after backward and the sums in before the update), run on
// the CPU so that it is tested where there is no GPU: copies between host tensors are exact, so
// it must train the very bits the direct path trains, under every kind of design
// (design_cases()); and a staged run resumed from a checkpoint must end where an unbroken one
// does.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/train/sim_ranks.hpp"

namespace ordo::train {
namespace {

namespace fs = std::filesystem;

TEST(StagedParameters, TrainTheBitsTheDirectPathTrains) {
  const ShortRun run = short_run();
  for (DesignCase c : design_cases()) {
    c.config.prefetch = true;
    const std::vector<TrainResult> direct =
        train_on_ranks(small_cnn(), c.config, run.train, &run.test, run.options, 2);
    TrainOptions options = run.options;
    options.staged = true;
    const std::vector<TrainResult> staged =
        train_on_ranks(small_cnn(), c.config, run.train, &run.test, options, 2);
    expect_same_training(staged, direct, c.name);
  }
}

TEST(StagedParameters, AResumedRunEndsWhereAnUnbrokenOneDoes) {
  const fs::path dir = fs::temp_directory_path() / ("ordo_staged_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const data::LabelledImages train = data::first_examples(fashion(true), 256);
  designs::DesignConfig config = design_cases()[3].config;  // sharded: the allgather writes weights
  config.prefetch = true;
  TrainOptions options;
  options.batch = 16;
  options.epochs = 2;  // 8 steps an epoch
  options.evaluate = false;
  options.staged = true;
  const std::vector<TrainResult> whole =
      train_on_ranks(small_cnn(), config, train, nullptr, options, 2);
  TrainOptions first = options;
  first.steps_max = 10;
  first.checkpoint = {dir.string(), 5, false};
  train_on_ranks(small_cnn(), config, train, nullptr, first, 2);
  TrainOptions second = options;
  second.checkpoint = {dir.string(), 5, true};
  const std::vector<TrainResult> resumed =
      train_on_ranks(small_cnn(), config, train, nullptr, second, 2);
  fs::remove_all(dir);
  ASSERT_EQ(resumed.size(), 2u);
  ASSERT_EQ(resumed[0].first_step, 10u);
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_TRUE(same_bits(resumed[r].weights, whole[r].weights)) << "rank " << r;
    EXPECT_TRUE(same_bits(resumed[r].buffers, whole[r].buffers)) << "rank " << r;
  }
}

}  // namespace
}  // namespace ordo::train
