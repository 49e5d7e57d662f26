// The hang watchdog: a thread of its own that looks at the flight recorder a few times per
// timeout and, when a collective or a wait of the main thread is older than the timeout, writes
// the rank's dump to DIR/rank-K.json, prints a one-paragraph summary on standard error and ends
// the job through `abort` (ordo train: MPI_Abort, after which mpirun ends every rank). A blocked
// MPI call cannot be interrupted; a separate thread that gives up on it is the one way out.
//
// With `on_signal`, SIGTERM (what mpirun sends every surviving rank when one rank died or
// aborted, a second before SIGKILL) also makes the watchdog dump at once, reason "signal", and
// then the process ends by that signal as it would have without the watchdog. So a rank killed
// outright leaves the other ranks' dumps behind, and `ordo analyze` can name it as missing.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "runtime/diag/flight_recorder.hpp"
#include "runtime/errors/exit_codes.hpp"

namespace ordo::diag {

// The exit code of a rank ended by its watchdog (docs/diagnostics.md).
inline constexpr int exit_hang = exit_codes::hang;

// The hang timeout where none is given (--hang-timeout, ORDO_HANG_TIMEOUT), in seconds. Minutes:
// a step of any network here takes far less, and a rank's first step (its warm-up) or an
// evaluation may take much longer than a step; a job that stalls is still ended long before an
// operator would notice.
inline constexpr double hang_timeout_default_s = 600.0;

struct WatchdogOptions {
  double timeout_s = hang_timeout_default_s;  // > 0
  std::string dir = "ordo-dumps";
  // Ends the job; must not return (ordo train: MpiRuntime::abort). Default: std::_Exit.
  std::function<void(int code)> abort;
  bool on_signal = true;  // dump on SIGTERM (one watchdog per process may take it)
  // The ranks' step program as a DAG dump, when the job knows it: written beside each rank dump
  // as DIR/program.json, where `ordo analyze DIR` finds it and says which op of the program each
  // rank was in. Every rank writes the same text, each atomically, so any one of them may land.
  std::string program_dump;
  // After a hang dump the rank waits this long before it ends the job, so that peers stuck on
  // the same fault reach their own timeout and write a hang dump of their own instead of being
  // killed by mpirun mid-way (which leaves a `signal` dump at best, none on a loaded machine).
  // Negative: the default, the timeout itself capped at 5 s.
  double abort_grace_s = -1.0;
};

class Watchdog {
 public:
  // Starts watching at once. Throws std::invalid_argument for a timeout that is not positive and
  // finite, std::logic_error when another watchdog holds SIGTERM.
  Watchdog(FlightRecorder& recorder, WatchdogOptions options);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // Writes the dump now and returns its path (or the error's text): for tests and for a rank
  // that fails alone and wants its state on record before it ends the job.
  std::string dump_now(const std::string& reason, const std::string& detail);

  // While it lives, a call or wait may take `seconds` more than the timeout before it is a hang:
  // for a wait known to last longer than any collective may, by a known bound (in ordo train
  // every rank but 0 waits for rank 0's verdict while it verifies for up to --verify-timeout).
  class Allowance {
   public:
    Allowance(Watchdog* watchdog, double seconds);  // a null watchdog: nothing to allow
    ~Allowance();
    Allowance(const Allowance&) = delete;
    Allowance& operator=(const Allowance&) = delete;

   private:
    Watchdog* watchdog_;
  };

 private:
  void loop();
  // Before the rank's dump, so that a reader who sees the dump sees the program too.
  void write_program() const;
  // Sleeps for the abort grace; returns early when SIGTERM arrives (the job is ending anyway).
  void wait_grace() const;
  [[noreturn]] void fire(const std::string& reason, const std::string& detail, int code);

  FlightRecorder& recorder_;
  WatchdogOptions options_;
  std::chrono::nanoseconds timeout_;
  std::chrono::nanoseconds poll_;
  std::chrono::nanoseconds grace_;
  std::atomic<std::int64_t> allowance_ns_{0};  // what an Allowance adds to timeout_
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;  // under mutex_
  std::once_flag dumped_;
  std::thread thread_;
};

// Reads ORDO_HANG_TIMEOUT (seconds); nullopt when unset. Throws std::invalid_argument naming the
// variable for a value that is not a positive number.
std::optional<double> hang_timeout_from_env();

}  // namespace ordo::diag
