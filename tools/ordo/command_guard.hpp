// The bounds of one `ordo verify` or `ordo fuzz` as a whole: wall-clock time from the start (--timeout) and the
// process's resident memory (--memory-max), over reading the input, building the program and the
// model, the symbolic stage and the search alike. The stages that can stop by themselves (the
// searches) are given what is left and answer `unknown` with their figures. For the ones that
// cannot (parsing JSON, building a model of a million ranks, a Z3 call), a guard thread reads the
// clock and the memory every few milliseconds; once a bound is passed it answers `unknown` itself,
// naming the bound, its option and the stage it stopped, and ends the process with exit code 3.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "runtime/comm/rules/backend.hpp"
#include "runtime/io/input_file.hpp"
#include "tools/ordo/command_clock.hpp"

namespace ordo::tools {

struct GuardBounds {
  double seconds = 60.0;
  std::uint64_t bytes = 0;
};

// Three quarters of the machine's memory, at most 8 GiB: enough for any job the default time
// limit can decide, and short of the point where the kernel kills the process without a word.
std::uint64_t default_memory_max();

// How the guard's answer is written, in the form the command was asked for: words whose first
// line names the input, the object `ordo verify --json` prints (docs/checker.md), or a SARIF log
// whose run says `unknown` and why.
enum class GuardFormat : std::uint8_t { text, json, sarif };

struct GuardReport {
  std::string command;  // "ordo verify", for the line on standard error
  std::string input;
  std::string method;
  GuardFormat format = GuardFormat::text;
  comm::Backend backend = comm::Backend::mpi;  // the semantics the job is checked under
};

// What a command has found before a bound ended it, answered instead of plain `unknown`: a
// finding made is not lost because a later step could not stop.
struct GuardPartial {
  std::string text;  // standard output, in the command's format
  int code = 0;      // the exit code
};
// Given why the guard stops and the seconds so far; nullopt: nothing found, answer unknown.
using GuardFound = std::function<std::optional<GuardPartial>(const std::string& why, double)>;

class CommandGuard {
 public:
  CommandGuard(const CommandClock& clock, GuardBounds bounds, GuardReport report);
  CommandGuard(const CommandGuard&) = delete;
  CommandGuard& operator=(const CommandGuard&) = delete;
  ~CommandGuard();

  // What the command does now ("reading the input"), for the answer should a bound stop it; a
  // string literal, since the guard thread reads it at any moment.
  void stage(const char* what);
  // The rank count, once known, for the answer.
  void ranks(std::uint32_t count);
  // What the guard asks for before it answers (on its own thread, its lock held): the findings
  // so far. Set before the work.
  void found_so_far(GuardFound found);
  // From here on the command only writes what it found: the guard stops (waiting if it is
  // answering already), so that it never cuts an output file short.
  void stand_down();

  // Answers unknown for --memory-max without waiting to reach it (`why`: what would pass it),
  // as the guard would; stands down first. Returns the exit code.
  int refuse_memory(const std::string& why);
  // Answers unknown for an allocation that failed below --memory-max (a smaller ulimit), naming
  // the stage; stands down first. Returns the exit code.
  int out_of_memory();

  // The margin the guard leaves after --timeout for a search that stops by itself to write its
  // own answer.
  static double grace_seconds(double timeout);

 private:
  void watch();
  std::string answer_text(bool time, const std::string& why, double seconds,
                          bool reached = true) const;
  [[noreturn]] void answer(bool time, double seconds);

  const CommandClock& clock_;
  GuardBounds bounds_;
  GuardReport report_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool standing_down_ = false;
  const char* stage_ = "starting";
  std::uint32_t ranks_ = 0;
  GuardFound found_;
  // While the guard watches, a wait for a pipe's writer ends at --timeout: streams are inputs.
  std::optional<io::StreamsUnderABound> streams_{std::in_place};
  std::thread thread_;
};

}  // namespace ordo::tools
