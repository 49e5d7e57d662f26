// The commit protocol: `latest` names a step only once committed; committing keeps the new step
// and the previous one and removes the rest; a `latest` that is not a step number is refused.
#include "runtime/checkpoint/checkpoint_dir.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "runtime/checkpoint/checkpoint_error.hpp"

namespace ordo::checkpoint {
namespace {

namespace fs = std::filesystem;

class CheckpointDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ordo_ckpt_dir_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string dir() const { return dir_.string(); }
  void touch(std::uint64_t step, std::uint32_t rank) {
    prepare_step(dir(), step);
    std::ofstream(rank_file(dir(), step, rank)) << "x";
  }
  fs::path dir_;
};

TEST_F(CheckpointDir, NamesFilesByStepAndRank) {
  EXPECT_EQ(rank_file("ck", 12, 3), (fs::path("ck") / "step-12" / "rank-3.ckpt").string());
}

TEST_F(CheckpointDir, NothingIsLatestUntilCommitted) {
  EXPECT_EQ(latest(dir()), std::nullopt);
  touch(10, 0);
  touch(10, 1);
  EXPECT_EQ(latest(dir()), std::nullopt);
  commit(dir(), 10);
  EXPECT_EQ(latest(dir()), 10u);
}

TEST_F(CheckpointDir, CommitKeepsTheNewAndThePreviousStepOnly) {
  for (std::uint64_t s : {10u, 20u}) {
    touch(s, 0);
    commit(dir(), s);
  }
  touch(25, 0);  // written, never committed (a crash before the commit)
  touch(30, 0);
  commit(dir(), 30);
  EXPECT_EQ(latest(dir()), 30u);
  EXPECT_TRUE(fs::exists(step_dir(dir(), 30)));
  EXPECT_TRUE(fs::exists(step_dir(dir(), 20)));  // the previous checkpoint stays
  EXPECT_FALSE(fs::exists(step_dir(dir(), 10)));
  EXPECT_FALSE(fs::exists(step_dir(dir(), 25)));
}

TEST_F(CheckpointDir, LeavesOtherFilesAlone) {
  fs::create_directories(dir_ / "notes");
  std::ofstream(dir_ / "step-x") << "a user's file";
  touch(1, 0);
  commit(dir(), 1);
  EXPECT_TRUE(fs::exists(dir_ / "notes"));
  EXPECT_TRUE(fs::exists(dir_ / "step-x"));
}

TEST_F(CheckpointDir, RefusesALatestThatIsNotAStep) {
  fs::create_directories(dir_);
  for (const char* text : {"", "12a\n", "-3\n", "99999999999999999999999\n", " 4\n"}) {
    std::ofstream(dir_ / "latest") << text;
    EXPECT_THROW(latest(dir()), CheckpointError) << '"' << text << '"';
  }
  std::ofstream(dir_ / "latest") << "42\n";
  EXPECT_EQ(latest(dir()), 42u);
}

}  // namespace
}  // namespace ordo::checkpoint
