// `ordo train`'s job called as a function, without the command line, in a world of one Open MPI
// process (this program's own, started once for all its tests): it trains and reports; and a run
// stopped after a checkpoint and resumed prints the unbroken run's epoch figures, on standard
// output and in the metrics file's `epoch` events, to the last digit.
#include "runtime/train/job/train_job.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/comm/mpi/runtime.hpp"

namespace ordo::train {
namespace {

namespace fs = std::filesystem;

comm::MpiRuntime* mpi = nullptr;

// MPI starts once a process, before the first test, and ends after the last.
class MpiEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    runtime_ = std::make_unique<comm::MpiRuntime>(nullptr, nullptr);
    mpi = runtime_.get();
  }
  void TearDown() override {
    mpi = nullptr;
    runtime_.reset();
  }

 private:
  std::unique_ptr<comm::MpiRuntime> runtime_;
};

class TrainJobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ordo_train_job_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // 512 images, 32 steps of 16 an epoch, on an MLP: a second or two.
    options_.network = "mlp";
    options_.data.train_images = 512;
    options_.data.test_images = 200;
    options_.options.batch = 16;
    options_.progress = "none";
    options_.dump_dir = (dir_ / "dumps").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The job's exit code and what rank 0 printed.
  std::pair<int, std::string> run(const JobOptions& o) {
    std::ostringstream out;
    const int code = train_job(*mpi, o, out);
    return {code, out.str()};
  }

  fs::path dir_;
  JobOptions options_;
};

// The lines "epoch E/N: train loss L, train accuracy A%, test accuracy T%", without the time.
std::vector<std::string> epoch_figures(const std::string& out) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("epoch ", 0) == 0 && line.find(": train loss ") != std::string::npos) {
      lines.push_back(line.substr(0, line.rfind(" (")));
    }
  }
  return lines;
}

// The metrics file's `epoch` events, without their time.
std::vector<nlohmann::json> epoch_events(const fs::path& metrics) {
  std::vector<nlohmann::json> events;
  std::ifstream in(metrics);
  for (std::string line; std::getline(in, line);) {
    nlohmann::json e = nlohmann::json::parse(line);
    if (e["event"] != "epoch") continue;
    e.erase("seconds");
    events.push_back(e);
  }
  return events;
}

TEST_F(TrainJobTest, TrainsAndReportsWithoutTheCommandLine) {
  const auto [code, out] = run(options_);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("verify: safe at 1 ranks (depcha"), std::string::npos) << out;
  EXPECT_EQ(epoch_figures(out).size(), 1u) << out;
  EXPECT_NE(out.find("trained 32 steps of 16 x 1 images"), std::string::npos) << out;
}

TEST_F(TrainJobTest, AResumedRunPrintsTheUnbrokenRunsEpochFigures) {
  JobOptions whole = options_;
  whole.metrics_path = (dir_ / "whole.jsonl").string();
  const auto [whole_code, whole_out] = run(whole);
  ASSERT_EQ(whole_code, 0) << whole_out;

  JobOptions first = options_;
  first.metrics_path = (dir_ / "broken.jsonl").string();
  first.options.steps_max = 12;  // stops mid-epoch, checkpointed after its last step
  first.options.checkpoint = {(dir_ / "ckpt").string(), 5, false};
  const auto [first_code, first_out] = run(first);
  ASSERT_EQ(first_code, 0) << first_out;
  JobOptions second = first;
  second.options.steps_max = 0;
  second.options.checkpoint.resume = true;
  const auto [second_code, second_out] = run(second);
  ASSERT_EQ(second_code, 0) << second_out;
  ASSERT_NE(second_out.find("resumed at step 12,"), std::string::npos) << second_out;

  EXPECT_EQ(epoch_figures(second_out), epoch_figures(whole_out)) << second_out;
  // The stopped run's figures were of its own twelve steps: the comparison means something.
  EXPECT_NE(epoch_figures(first_out), epoch_figures(whole_out)) << first_out;
  const std::vector<nlohmann::json> want = epoch_events(whole.metrics_path);
  const std::vector<nlohmann::json> got = epoch_events(second.metrics_path);
  ASSERT_EQ(want.size(), 1u);
  ASSERT_EQ(got.size(), 2u);  // the stopped run's, then the resumed run's (appended)
  EXPECT_EQ(got[1], want[0]) << got[1].dump() << " against " << want[0].dump();
}

}  // namespace
}  // namespace ordo::train

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new ordo::train::MpiEnvironment);
  return RUN_ALL_TESTS();
}
