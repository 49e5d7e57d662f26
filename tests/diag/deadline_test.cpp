// The two bounds a job puts on waits that the watchdog's plain timeout does not fit: a deadline
// over work no recorder sees, and the watchdog's allowance for a wait with a known bound of its
// own. Each waits for the event it tests (docs/testing.md, "How a test may use time"); the one
// sleep only widens the window in which a wrong allowance would fire.
#include "runtime/diag/deadline.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>

#include "runtime/diag/watchdog.hpp"
#include "runtime/flight/recorded_world.hpp"
#include "tests/diag/dumps.hpp"
#include "tests/diag/fake_world.hpp"

namespace ordo::diag {
namespace {

TEST(Deadline, ExpiresWhenTheWorkOutlastsIt) {
  std::promise<void> expired;
  const Deadline deadline(0.01, [&] { expired.set_value(); });
  expired.get_future().wait();
}

TEST(Deadline, WorkDoneInTimeNeverExpires) {
  std::atomic<bool> expired = false;
  {
    const Deadline deadline(3600, [&] { expired = true; });
  }
  EXPECT_FALSE(expired);
  EXPECT_THROW(Deadline(0, [] {}), std::invalid_argument);
  EXPECT_THROW(Deadline(-1, [] {}), std::invalid_argument);
}

// A call in flight far longer than the timeout, watched under an allowance that then ends;
// never returns (the watchdog ends the process).
[[noreturn]] void hang_under_an_allowance(const std::string& dir) {
  testing::FakeWorld inner;
  FlightRecorder recorder(inner, testing::fake_comms, 8);
  flight::RecordedWorld world(inner, recorder.rings());
  float buffer[4] = {};
  world.comm(1).start_then(testing::allreduce(1), buffer, [](std::exception_ptr) {});
  WatchdogOptions options;
  options.timeout_s = 0.05;
  options.dir = dir;
  options.on_signal = false;
  options.abort_grace_s = 0;
  Watchdog watchdog(recorder, options);
  {
    const Watchdog::Allowance waiting(&watchdog, 3600);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    std::fprintf(stderr, "allowance held\n");
  }
  while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
}

// No hang while the allowance covers the call, a hang as soon as it ends: the watchdog then ends
// the process with exit code 6.
TEST(WatchdogAllowance, CoversAKnownLongWaitAndNoMore) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ordo_allowance_" + std::to_string(::getpid()));
  EXPECT_EXIT(hang_under_an_allowance(dir.string()), ::testing::ExitedWithCode(exit_hang),
              "allowance held(.|\n)*hang: ");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ordo::diag
