// A dump is written atomically: a process killed while writing it leaves the previous dump or
// none under rank-K.json, never a torn one. A child process rewrites a large dump in a loop and is
// killed with SIGKILL at varying moments; every rank-K.json left must read back whole.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "runtime/diag/rank_dump_io.hpp"
#include "tests/diag/dumps.hpp"

namespace ordo::diag {
namespace {

TEST(AtomicDump, AKillMidWriteLeavesAWholeDumpOrNone) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ordo_atomic_dump_" + std::to_string(getpid()));
  RankDump big = testing::empty_dump(0, 2);
  big.ring_capacity = 1u << 16;
  for (int i = 0; i < 2000; ++i) {
    testing::add_call(big, 0, testing::allreduce(i), false, "an.op.with.a.longish.name");
  }
  for (int round = 0; round < 6; ++round) {
    std::filesystem::remove_all(dir);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      for (std::int64_t n = 0;; ++n) {
        big.written_us = n;
        write_rank_dump_file(dir.string(), big);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20 + 37 * round));
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status));
    const std::filesystem::path dump = dir / "rank-0.json";
    if (!std::filesystem::exists(dump)) continue;  // killed before the first rename
    const RankDump back = read_rank_dump_file(dump.string());
    EXPECT_EQ(back.comms.at(0).calls.size(), 2000u);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ordo::diag
