// Running SPIN on an export: generate the verifier (spin -a), compile it, search every state,
// and read pan's answer. The SPIN agreement test and the checker-vs-SPIN benchmark both use it,
// so pan's output is parsed in one place. It needs `spin`, a C compiler and coreutils' `timeout`
// on the PATH; the library itself links nothing of SPIN.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "checker/promela/export.hpp"

namespace ordo::checker::promela {

// spin or the C compiler is missing or failed: the message says which and quotes its output.
class SpinError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SpinOptions {
  double seconds_max = 0.0;        // the search's wall-clock limit; 0 for none
  std::uint64_t memory_mb = 4096;  // pan's -DMEMLIM
  std::uint32_t hash_bits = 22;    // pan's -w: the hash table has 2^bits slots
  std::string compiler = "cc";
  std::string optimization = "-O2";
  // Which violations pan reports. One left out still ends its execution (the model never goes
  // past a violation), so reporting one kind alone asks whether that kind is reachable.
  bool report_p1 = true;
  bool report_p2 = true;
  bool report_deadlocks = true;  // P3 and P4: pan's invalid end states
};

enum class SpinVerdict : std::uint8_t {
  safe,               // errors: 0, the search completed
  assertion,          // an assertion failed: `assertion` names it (P1 or P2)
  invalid_end_state,  // a deadlock (P3 or P4)
  incomplete,         // a bound stopped the search first: `incomplete_why` says which
  model_error,        // pan reported another error (an index out of range): a model bug
};

struct SpinResult {
  SpinVerdict verdict = SpinVerdict::incomplete;
  std::string assertion;  // "p1_order_consistent" or "p2_thread_rule_kept"
  std::string incomplete_why;
  std::uint64_t errors = 0;
  double states_stored = 0;
  double transitions = 0;
  std::uint64_t depth_reached = 0;
  double generate_seconds = 0;  // spin -a
  double compile_seconds = 0;   // cc on pan.c
  double search_seconds = 0;    // ./pan
  std::string pan_output;
};

std::string_view to_string(SpinVerdict verdict);

// Runs SPIN on `promela` in a fresh temporary directory, removed afterwards. Throws SpinError
// when a tool is missing or spin -a or the compiler fails.
SpinResult run_spin(const std::string& promela, const SpinHints& hints, const SpinOptions& options);

// Reads pan's output; `killed` says the search was stopped by the time limit.
SpinResult parse_pan_output(const std::string& output, bool killed);

}  // namespace ordo::checker::promela
