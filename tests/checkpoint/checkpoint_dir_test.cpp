// The commit protocol: `latest` names a step only once committed; committing keeps the new step
// and the previous one and removes the rest, and what a killed commit left; a `latest` that is
// not a file holding a step number is refused, saying what it is.
#include "runtime/checkpoint/checkpoint_dir.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
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

// A directory named `latest` is said to be one, not read as a file holding ''; a FIFO is refused
// without opening it (which would wait for a writer for ever).
TEST_F(CheckpointDir, ALatestThatIsNoFileSaysWhatItIs) {
  fs::create_directories(dir_ / "latest");
  try {
    latest(dir());
    FAIL() << "a directory was read as latest";
  } catch (const CheckpointError& e) {
    EXPECT_EQ(e.problem(), "is a directory") << e.what();
    EXPECT_EQ(e.where(), (dir_ / "latest").string());
  }
  fs::remove(dir_ / "latest");
  ASSERT_EQ(::mkfifo((dir_ / "latest").c_str(), 0644), 0);
  try {
    latest(dir());
    FAIL() << "a FIFO was read as latest";
  } catch (const CheckpointError& e) {
    EXPECT_NE(e.problem().find("is a named pipe (FIFO), whose reading may wait for ever"),
              std::string::npos)
        << e.what();
  }
}

// A commit killed between writing `latest.tmp.PID` and renaming it leaves the temporary; the next
// commit removes it, and only names of that pattern whose process is gone.
TEST_F(CheckpointDir, ACommitRemovesWhatAKilledCommitLeft) {
  touch(1, 0);
  commit(dir(), 1);
  // No process has this id: it is above every kernel's pid_max.
  const fs::path stale = dir_ / "latest.tmp.2147483647";
  const fs::path live = dir_ / ("latest.tmp." + std::to_string(::getppid()));
  const fs::path others[] = {dir_ / "latest.tmp.", dir_ / "latest.tmp.12x", dir_ / "latest.old",
                             dir_ / "latest.tmp.2147483647.bak"};
  for (const fs::path& p : {stale, live}) std::ofstream(p) << "2\n";
  for (const fs::path& p : others) std::ofstream(p) << "a user's file";
  touch(2, 0);
  commit(dir(), 2);
  EXPECT_EQ(latest(dir()), 2u);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live)) << "a live process may still rename its temporary";
  for (const fs::path& p : others) EXPECT_TRUE(fs::exists(p)) << p;
}

}  // namespace
}  // namespace ordo::checkpoint
