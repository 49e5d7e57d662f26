#include "tools/ordo/command_guard.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>

#include "checker/search/memory.hpp"
#include "checker/verify/verify.hpp"
#include "checker/verify/verify_sarif.hpp"
#include "report/sarif.hpp"
#include "runtime/bounds/seconds.hpp"
#include "tools/ordo/commands.hpp"

namespace ordo::tools {

namespace {

// Often enough that memory allocated at a few GB/s overshoots the bound by little, rarely
// enough to cost nothing next to the work it watches (one read of /proc/self/statm).
constexpr std::chrono::milliseconds poll_period{5};

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;  // nothing left to tell the error to: the exit code still says unknown
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

std::uint64_t default_memory_max() {
  constexpr std::uint64_t cap = std::uint64_t{8} << 30;
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return cap;
  return std::min(cap,
                  static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 4 * 3);
}

const CommandClock& command_clock() {
  static const CommandClock clock;
  return clock;
}

double CommandGuard::grace_seconds(double timeout) { return 0.1 + 0.05 * timeout; }

CommandGuard::CommandGuard(const CommandClock& clock, GuardBounds bounds, GuardReport report)
    : clock_(clock), bounds_(bounds), report_(std::move(report)), thread_([this] { watch(); }) {}

CommandGuard::~CommandGuard() { stand_down(); }

void CommandGuard::stage(const char* what) {
  const std::lock_guard<std::mutex> lock(mutex_);
  stage_ = what;
}

void CommandGuard::ranks(std::uint32_t count) {
  const std::lock_guard<std::mutex> lock(mutex_);
  ranks_ = count;
}

void CommandGuard::found_so_far(GuardFound found) {
  const std::lock_guard<std::mutex> lock(mutex_);
  found_ = std::move(found);
}

void CommandGuard::stand_down() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    standing_down_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  streams_.reset();
}

void CommandGuard::watch() {
  const double deadline = bounds_.seconds + grace_seconds(bounds_.seconds);
  std::unique_lock<std::mutex> lock(mutex_);
  while (!standing_down_) {
    const double now = clock_.elapsed();
    if (now >= deadline) answer(true, now);
    if (bounds_.bytes != 0 && checker::resident_bytes() > bounds_.bytes) answer(false, now);
    wake_.wait_for(lock, poll_period);
  }
}

std::string CommandGuard::answer_text(bool time, const std::string& why, double seconds,
                                      bool reached) const {
  const checker::Bound bound = time ? checker::Bound::seconds_max : checker::Bound::bytes_max;
  const std::uint64_t value = time ? bounds::whole_seconds(bounds_.seconds) : bounds_.bytes;
  const std::string option = time ? "--timeout" : "--memory-max";
  if (report_.format == GuardFormat::sarif) {
    const std::string words =
        reached ? why + "; raise " + option
                : why + "; lower " + option + " so that ordo stops first";
    report::SarifRun run = checker::verify_sarif_unknown(words, ranks_);
    run.exit_code = exit_unknown;
    return report::sarif_log(run);
  }
  if (report_.format == GuardFormat::json) {
    checker::StoppedAnswer a;
    if (ranks_ != 0) a.ranks = ranks_;
    a.backend = report_.backend;
    a.method = report_.method;
    a.bound = bound;
    a.bound_value = value;
    a.stopped = why;
    a.seconds = seconds;
    return checker::json_report(a);
  }
  char figures[64];
  std::snprintf(figures, sizeof figures, "time to verdict: %.3f s\n", seconds);
  return report_.input + ": UNKNOWN" +
         (ranks_ == 0 ? std::string() : " at " + std::to_string(ranks_) + " rank(s)") + "\n" +
         "bound " + std::string(checker::to_string(bound)) +
         (time ? std::string() : " = " + std::to_string(value)) +
         (reached ? " reached: " + why + "; raise " + option
                  : " not reached: " + why + "; lower " + option + " so that ordo stops first") +
         "\n" + figures;
}

// Runs on the guard thread with the mutex held, so stand_down() waits for the exit rather than
// letting the command write its own answer too. Nothing has been written to standard output
// before stand_down(), so this answer is the only one there.
void CommandGuard::answer(bool time, double seconds) {
  const std::string why = std::string(time ? "the time limit" : "the memory limit") + " (" +
                          (time ? "--timeout" : "--memory-max") + ") ran out while " + stage_;
  if (found_) {
    if (std::optional<GuardPartial> partial = found_(why, seconds)) {
      write_all(STDOUT_FILENO, partial->text);
      write_all(STDERR_FILENO, report_.command + ": " + why + "; what was found before is above\n");
      ::_exit(partial->code);
    }
  }
  write_all(STDOUT_FILENO, answer_text(time, why, seconds));
  write_all(STDERR_FILENO, report_.command + ": " + why + "\n");
  // No destructor runs: the main thread is inside a stage that cannot stop, and no output file
  // is open (stand_down comes first).
  ::_exit(exit_unknown);
}

int CommandGuard::out_of_memory() {
  stand_down();
  const std::string why =
      std::string("the machine's memory ran out (std::bad_alloc) while ") + stage_;
  std::cout << answer_text(false, why, clock_.elapsed(), false);
  std::cerr << report_.command << ": unknown: " << why << ", below --memory-max " << bounds_.bytes << '\n';
  return exit_unknown;
}

int CommandGuard::refuse_memory(const std::string& why) {
  stand_down();
  std::cout << answer_text(false, why, clock_.elapsed());
  std::cerr << report_.command << ": " << why << '\n';
  return exit_unknown;
}

}  // namespace ordo::tools
