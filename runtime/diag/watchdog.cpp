#include "runtime/diag/watchdog.hpp"

#include <semaphore.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sstream>
#include <stdexcept>

#include "runtime/bounds/seconds.hpp"
#include "runtime/diag/rank_dump_io.hpp"
#include "runtime/io/message_line.hpp"

namespace ordo::diag {
namespace {

// SIGTERM reaches the watchdog through a semaphore: sem_post is async-signal-safe, and the
// watchdog thread waits on it between looks at the recorder.
sem_t signal_sem;
std::atomic<int> signal_seen{0};
std::atomic<bool> signal_owned{false};
struct sigaction previous_action {};

void on_term(int number) {
  signal_seen.store(number, std::memory_order_relaxed);
  sem_post(&signal_sem);
}

void take_signal() {
  bool expected = false;
  if (!signal_owned.compare_exchange_strong(expected, true)) {
    throw std::logic_error("another hang watchdog already handles SIGTERM in this process");
  }
  sem_init(&signal_sem, 0, 0);
  signal_seen.store(0);
  struct sigaction action {};
  action.sa_handler = on_term;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, &previous_action);
}

void give_signal_back() {
  sigaction(SIGTERM, &previous_action, nullptr);
  sem_destroy(&signal_sem);
  signal_owned.store(false);
}

std::string seconds_text(double s) {
  std::ostringstream out;
  out.precision(3);
  out << s << " s";
  return out.str();
}

// One paragraph: who, what was late and for how long, where the dump is, what to run next.
std::string summary(const RankDump& dump, const std::string& path, const std::string& reason,
                    const std::string& detail) {
  std::ostringstream out;
  out << "ordo: rank " << dump.rank << " of " << dump.world_size << ": ";
  if (reason == "hang") {
    out << "hang: " << detail << ", longer than the hang timeout of "
        << seconds_text(dump.hang_timeout_s) << ".";
  } else {
    out << detail << ".";
  }
  for (const DumpComm& c : dump.comms) {
    for (const DumpCall& call : c.calls) {
      if (!call.open()) continue;
      out << " Open on '" << c.name << "': seq " << call.seq << " (" << call.issuer << ").";
    }
  }
  if (dump.main && !dump.main->what.empty()) out << " Main thread: " << dump.main->what << ".";
  out << " A rank cannot see from here which ranks did not arrive; every rank writes its dump to "
         "the same directory and `ordo analyze` matches them.";
  out << " Dump: " << path << "; run `ordo analyze " << path.substr(0, path.rfind('/')) << "`.";
  return out.str();
}

}  // namespace

Watchdog::Watchdog(FlightRecorder& recorder, WatchdogOptions options)
    : recorder_(recorder), options_(std::move(options)) {
  if (!(options_.timeout_s > 0.0) || !std::isfinite(options_.timeout_s)) {
    throw std::invalid_argument("hang timeout " + std::to_string(options_.timeout_s) +
                                " s; expected a positive number of seconds");
  }
  // Saturated: a timeout past the clock's range never falls, rather than wrapping to the past.
  timeout_ = std::chrono::duration_cast<std::chrono::nanoseconds>(
      bounds::saturated_duration(options_.timeout_s));
  // A few looks per timeout, at most 4 a second: late by at most a quarter of the timeout.
  poll_ = std::min<std::chrono::nanoseconds>(timeout_ / 4, std::chrono::milliseconds(250));
  const double grace_s =
      options_.abort_grace_s < 0.0 ? std::min(options_.timeout_s, 5.0) : options_.abort_grace_s;
  if (!std::isfinite(grace_s) || grace_s > 3600.0) {
    throw std::invalid_argument("abort grace " + std::to_string(grace_s) +
                                " s; expected at most 3600 seconds");
  }
  grace_ = std::chrono::nanoseconds(static_cast<std::int64_t>(grace_s * 1e9));
  if (!options_.abort) options_.abort = [](int code) { std::_Exit(code); };
  if (options_.on_signal) take_signal();
  thread_ = std::thread([this] { loop(); });
}

Watchdog::~Watchdog() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (options_.on_signal) sem_post(&signal_sem);
  thread_.join();
  if (options_.on_signal) give_signal_back();
}

Watchdog::Allowance::Allowance(Watchdog* watchdog, double seconds) : watchdog_(watchdog) {
  if (watchdog_ == nullptr) return;
  const double capped = std::isfinite(seconds) ? std::clamp(seconds, 0.0, 1e9) : 1e9;
  watchdog_->allowance_ns_.store(static_cast<std::int64_t>(capped * 1e9));
}

Watchdog::Allowance::~Allowance() {
  if (watchdog_ != nullptr) watchdog_->allowance_ns_.store(0);
}

std::string Watchdog::dump_now(const std::string& reason, const std::string& detail) {
  const RankDump dump = recorder_.dump(reason, detail, options_.timeout_s);
  try {
    write_program();
    return write_rank_dump_file(options_.dir, dump);
  } catch (const std::exception& e) {
    return std::string("(not written: ") + e.what() + ")";
  }
}

void Watchdog::write_program() const {
  if (!options_.program_dump.empty()) write_program_file(options_.dir, options_.program_dump);
}

void Watchdog::wait_grace() const {
  if (grace_.count() <= 0) return;
  if (!options_.on_signal) {
    std::this_thread::sleep_for(grace_);
    return;
  }
  timespec until{};
  clock_gettime(CLOCK_REALTIME, &until);
  const auto ns = until.tv_nsec + grace_.count();
  until.tv_sec += static_cast<time_t>(ns / 1'000'000'000);
  until.tv_nsec = static_cast<long>(ns % 1'000'000'000);
  while (sem_timedwait(&signal_sem, &until) != 0 && errno == EINTR) {
  }
}

void Watchdog::fire(const std::string& reason, const std::string& detail, int code) {
  std::call_once(dumped_, [&] {
    const RankDump dump = recorder_.dump(reason, detail, options_.timeout_s);
    std::string path;
    try {
      write_program();
      path = write_rank_dump_file(options_.dir, dump);
    } catch (const std::exception& e) {
      path = rank_dump_path(options_.dir, dump.rank) + " (not written: " + e.what() + ")";
    }
    // One write: the ranks' summaries reach one terminal through mpirun.
    io::write_line(summary(dump, path, reason, detail));
  });
  if (reason == "signal") {
    // End as the signal would have ended the process without the watchdog.
    give_signal_back();
    raise(code);
    std::_Exit(128 + code);
  }
  wait_grace();
  if (const int number = signal_seen.load(std::memory_order_relaxed);
      options_.on_signal && number != 0) {
    give_signal_back();
    raise(number);
    std::_Exit(128 + number);
  }
  options_.abort(code);
  std::_Exit(code);
}

void Watchdog::loop() {
  while (true) {
    if (options_.on_signal) {
      timespec until{};
      clock_gettime(CLOCK_REALTIME, &until);
      const auto ns = until.tv_nsec + poll_.count();
      until.tv_sec += static_cast<time_t>(ns / 1'000'000'000);
      until.tv_nsec = static_cast<long>(ns % 1'000'000'000);
      while (sem_timedwait(&signal_sem, &until) != 0 && errno == EINTR) {
      }
    } else {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, poll_, [&] { return stop_; });
    }
    {
      const std::lock_guard lock(mutex_);
      if (stop_) return;
    }
    if (const int number = signal_seen.load(std::memory_order_relaxed); number != 0) {
      fire("signal",
           "ended by signal " + std::to_string(number) +
               " (mpirun sends SIGTERM to every rank when one rank died or aborted)",
           number);
    }
    // A late call names the fault better than the main thread's wait for it, so it goes first.
    const Waits waits = recorder_.waits();
    const auto now = std::chrono::steady_clock::now();
    const auto limit = timeout_ + std::chrono::nanoseconds(allowance_ns_.load());
    for (const std::optional<Waiting>& w : {waits.call, waits.main}) {
      if (!w || now - w->since < limit) continue;
      const double seconds = std::chrono::duration<double>(now - w->since).count();
      fire("hang", w->what + " for " + seconds_text(seconds), exit_hang);
    }
  }
}

std::optional<double> hang_timeout_from_env() {
  const char* text = std::getenv("ORDO_HANG_TIMEOUT");
  if (text == nullptr || *text == '\0') return std::nullopt;
  // Read as --hang-timeout is (runtime/bounds/seconds.hpp).
  const bounds::SecondsRead read = bounds::read_seconds(text);
  if (read.problem) throw std::invalid_argument("ORDO_HANG_TIMEOUT: " + *read.problem);
  return read.seconds;
}

}  // namespace ordo::diag
