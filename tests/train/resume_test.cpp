// Checkpoints and resume, on two simulated ranks: a run stopped after a checkpoint and resumed
// ends with weights equal bit for bit to a run never stopped (across an epoch boundary, with
// momenta and batch norm's per-rank statistics in play); a run resumed from the exported initial
// state takes a fresh run's steps; the epoch it resumes in reports the unbroken run's figures; a
// torn checkpoint, or one of another run (another network, design, seed, batch), is refused on
// every rank before any rank trains.
#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <filesystem>
#include <fstream>

#include "runtime/checkpoint/checkpoint_dir.hpp"
#include "runtime/checkpoint/checkpoint_file.hpp"
#include "runtime/networks/network_builder.hpp"
#include "runtime/train/initial_state.hpp"
#include "tests/train/sim_ranks.hpp"

namespace ordo::train {
namespace {

namespace fs = std::filesystem;

class Resume : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ordo_resume_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    // 512 images: 256 per rank, 16 steps of 16 per epoch.
    train_ = data::first_examples(fashion(true), 512);
    config_.kind = designs::DesignKind::depcha;
    config_.prefetch = true;  // as ordo train runs: the data ops must resume at the right batch
    options_.batch = 16;
    options_.epochs = 2;
    options_.evaluate = false;
    options_.lr = LrSchedule{0.05, 4, {20}, 0.1};
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  data::LabelledImages train_;
  designs::DesignConfig config_;
  TrainOptions options_;
};

TEST_F(Resume, AResumedRunEndsBitForBitWhereAnUnbrokenOneDoes) {
  const networks::Network net = small_cnn();
  const std::vector<TrainResult> whole = train_on_ranks(net, config_, train_, nullptr, options_, 2);
  ASSERT_EQ(whole[0].losses.size(), 32u);

  TrainOptions first = options_;
  first.steps_max = 21;  // stops in the second epoch, after the checkpoint at 21
  first.checkpoint = {dir_.string(), 7, false};
  const std::vector<TrainResult> broken = train_on_ranks(net, config_, train_, nullptr, first, 2);
  ASSERT_EQ(broken[0].losses.size(), 21u);
  EXPECT_EQ(checkpoint::latest(dir_.string()), 21u);
  EXPECT_TRUE(fs::exists(checkpoint::rank_file(dir_.string(), 21, 1)));
  EXPECT_TRUE(fs::exists(checkpoint::step_dir(dir_.string(), 14)));  // the previous one
  EXPECT_FALSE(fs::exists(checkpoint::step_dir(dir_.string(), 7)));

  TrainOptions second = options_;
  second.checkpoint = {dir_.string(), 7, true};
  const std::vector<TrainResult> resumed = train_on_ranks(net, config_, train_, nullptr, second, 2);
  ASSERT_EQ(resumed[0].first_step, 21u);
  ASSERT_EQ(resumed[0].losses.size(), 11u);
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_TRUE(same_bits(resumed[r].weights, whole[r].weights)) << "rank " << r;
    EXPECT_TRUE(same_bits(resumed[r].buffers, whole[r].buffers)) << "rank " << r;
    EXPECT_EQ(resumed[r].losses,
              std::vector<double>(whole[r].losses.begin() + 21, whole[r].losses.end()));
  }
  // The epoch the run resumed in reports its figures over all of its steps, the ones before the
  // resume included, as the unbroken run does: the same bits on every rank.
  for (std::size_t r = 0; r < 2; ++r) {
    ASSERT_EQ(resumed[r].epochs.size(), 1u);
    ASSERT_EQ(whole[r].epochs.size(), 2u);
    const EpochReport& got = resumed[r].epochs[0];
    const EpochReport& want = whole[r].epochs[1];
    EXPECT_EQ(got.epoch, want.epoch);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(got.train_loss),
              std::bit_cast<std::uint64_t>(want.train_loss))
        << "rank " << r << ": " << got.train_loss << " against " << want.train_loss;
    EXPECT_EQ(std::bit_cast<std::uint64_t>(got.train_accuracy),
              std::bit_cast<std::uint64_t>(want.train_accuracy))
        << "rank " << r << ": " << got.train_accuracy << " against " << want.train_accuracy;
  }
  // The stopped run's weights were not yet the final ones: the comparison above means something.
  EXPECT_FALSE(same_bits(broken[0].weights, whole[0].weights));
  EXPECT_FALSE(same_bits(broken[0].buffers, whole[0].buffers));
  EXPECT_FALSE(same_bits(whole[0].buffers, whole[1].buffers));  // per rank, as MXNet keeps them
  EXPECT_EQ(checkpoint::latest(dir_.string()), 32u);
}

// The exported initial state (ordo train --export-init, which bench/ddp loads into PyTorch) is
// what training starts from: a run resumed from it, as a checkpoint of step 0, takes the same
// steps as a fresh run, bit for bit.
TEST_F(Resume, TheExportedInitialStateIsWhereAFreshRunStarts) {
  const networks::Network net = small_cnn();
  const std::vector<TrainResult> fresh = train_on_ranks(net, config_, train_, nullptr, options_, 2);

  checkpoint::Checkpoint init =
      initial_checkpoint(net, {"depcha", 2, options_.seed, options_.batch});
  EXPECT_EQ(init.step, 0u);
  ASSERT_EQ(init.arrays.size(),
            2 * networks::param_count(net) + 4u);  // 2 batch norms, 2 buffers each
  EXPECT_EQ(init.arrays[0].name, "conv1.weight");
  EXPECT_EQ(init.arrays[0].group, "weight");
  checkpoint::prepare_step(dir_.string(), 0);
  for (std::uint32_t r = 0; r < 2; ++r) {
    init.rank = r;  // every rank starts from rank 0's weights and fresh statistics
    checkpoint::write(checkpoint::rank_file(dir_.string(), 0, r), init);
  }
  checkpoint::commit(dir_.string(), 0);
  TrainOptions resumed_options = options_;
  resumed_options.checkpoint = {dir_.string(), 0, true};
  const std::vector<TrainResult> resumed =
      train_on_ranks(net, config_, train_, nullptr, resumed_options, 2);
  ASSERT_EQ(resumed[0].first_step, 0u);
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_EQ(resumed[r].losses, fresh[r].losses) << "rank " << r;
    EXPECT_TRUE(same_bits(resumed[r].weights, fresh[r].weights)) << "rank " << r;
    EXPECT_TRUE(same_bits(resumed[r].buffers, fresh[r].buffers)) << "rank " << r;
  }
}

TEST_F(Resume, ATornCheckpointIsRefusedOnEveryRank) {
  const networks::Network net = small_cnn();
  TrainOptions first = options_;
  first.steps_max = 8;
  first.checkpoint = {dir_.string(), 4, false};
  train_on_ranks(net, config_, train_, nullptr, first, 2);
  const std::string torn = checkpoint::rank_file(dir_.string(), 8, 1);
  fs::resize_file(torn, fs::file_size(torn) / 2);

  TrainOptions second = options_;
  second.checkpoint = {dir_.string(), 4, true};
  const RankRuns runs = run_on_ranks(net, config_, train_, nullptr, second, 2);
  EXPECT_NE(runs.errors[1].find(torn), std::string::npos) << runs.errors[1];
  EXPECT_NE(runs.errors[0].find("another rank could not resume"), std::string::npos)
      << runs.errors[0];
  // The previous checkpoint is still there, whole.
  EXPECT_TRUE(fs::exists(checkpoint::rank_file(dir_.string(), 4, 1)));
}

TEST_F(Resume, ACheckpointOfAnotherRunIsRefused) {
  TrainOptions first = options_;
  first.steps_max = 4;
  first.checkpoint = {dir_.string(), 4, false};
  train_on_ranks(small_cnn(), config_, train_, nullptr, first, 2);

  TrainOptions second = options_;
  second.checkpoint = {dir_.string(), 0, true};
  RankRuns runs = run_on_ranks(networks::lenet(10, 1.0), config_, train_, nullptr, second, 2);
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_NE(runs.errors[r].find("network small_cnn; expected network lenet"), std::string::npos)
        << runs.errors[r];
  }
  second.batch = 8;
  runs = run_on_ranks(small_cnn(), config_, train_, nullptr, second, 2);
  EXPECT_NE(runs.errors[0].find("batch 16; expected batch 8"), std::string::npos) << runs.errors[0];
  second.batch = 16;
  second.seed = 2;
  runs = run_on_ranks(small_cnn(), config_, train_, nullptr, second, 2);
  EXPECT_NE(runs.errors[0].find("seed"), std::string::npos) << runs.errors[0];
  // Another design: designs keep their state apart (sharded steps each rank's own blocks'
  // momentum only), so a checkpoint continues under the design that wrote it.
  second.seed = 1;
  designs::DesignConfig sharded = config_;
  sharded.kind = designs::DesignKind::sharded;
  sharded.shards = 2;
  runs = run_on_ranks(small_cnn(), sharded, train_, nullptr, second, 2);
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_NE(runs.errors[r].find("design depcha; expected design sharded, as this run has"),
              std::string::npos)
        << runs.errors[r];
  }
  second.seed = 2;
  runs = run_on_ranks(small_cnn(), config_, train_, nullptr, options_, 1);  // one rank: no resume
  EXPECT_EQ(runs.errors[0], "");
  second.seed = 1;
  runs = run_on_ranks(small_cnn(), config_, train_, nullptr, second, 1);
  EXPECT_NE(runs.errors[0].find("rank-0.ckpt"), std::string::npos) << runs.errors[0];
}

TEST_F(Resume, NoCheckpointToResumeIsAClearError) {
  TrainOptions o = options_;
  o.checkpoint = {dir_.string(), 0, true};
  const RankRuns runs = run_on_ranks(small_cnn(), config_, train_, nullptr, o, 2);
  EXPECT_NE(runs.errors[0].find("no committed checkpoint"), std::string::npos) << runs.errors[0];
}

}  // namespace
}  // namespace ordo::train
