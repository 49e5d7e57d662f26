// The checker's answer. `safe` is a proof for the rank count explored (every reachable state was
// visited); `unsafe` always carries a witness, the transitions from the initial state that reach
// the violation; `unknown` names the bound that stopped the exploration and the figures reached.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/system/system.hpp"
#include "runtime/comm/rules/violation.hpp"
#include "runtime/dag/transition.hpp"

namespace ordo::checker {

enum class Verdict : std::uint8_t { safe, unsafe, unknown };
enum class Property : std::uint8_t {
  p1_order,        // the n-th collectives on a communicator match
  p2_thread_rule,  // no call on a comm while a blocking call of the rank is in flight there
  p3_deadlock,     // every execution can finish
  p4_termination,  // each rank finishes alone
  p5_buffers,      // no touch of a buffer races a call on it (docs/semantics.md, B1-B3)
};
enum class Bound : std::uint8_t { states_max, seconds_max, bytes_max };

struct Stats {
  std::uint64_t states = 0;          // distinct states visited
  std::uint64_t transitions = 0;     // transitions taken, revisits included
  std::uint64_t depth_max = 0;       // longest path explored, in transitions
  std::uint64_t finals = 0;          // distinct states where every rank finished
  std::uint64_t transitions_deferred = 0;  // enabled but left out by partial-order reduction
  bool partial_order = false;        // the reductions the search used
  bool symmetry = false;
  double seconds = 0.0;
  double states_per_second = 0.0;
};

struct Result {
  Verdict verdict = Verdict::unknown;
  std::uint32_t ranks = 0;
  std::optional<Property> property;          // unsafe only
  std::optional<comm::Violation> violation;  // unsafe only
  std::vector<dag::Transition> witness;      // unsafe only; the last one causes the violation, or
                                             // leads to the stuck state of a deadlock
  std::optional<Bound> bound;                // unknown only
  std::uint64_t bound_value = 0;             // the limit that was reached
  Stats stats;
};

// The property a violation breaks, for every side that reports one (the checker's searches, the
// runtime's runs replayed or fuzzed): P1 or P2 by its kind; a deadlock is P3 when a collective is
// involved (comm::collective_involved: a call in flight, or one a stream holds), P4 otherwise.
Property property_of(const comm::Violation& violation);

std::string_view to_string(Verdict verdict);
std::string_view to_string(Property property);  // "P1 order consistency", ...
std::string_view to_string(Bound bound);        // "states_max", "seconds_max"

// "rank 1: claim 'allreduce.a.w' thread 0": one witness transition in words. A main transition
// names its action (dag::describe_main) when `pc`, the rank's main position before the
// transition, is given.
std::string describe(const System& model, const dag::Transition& transition,
                     std::optional<std::uint32_t> pc = std::nullopt);
// One witness transition as reports and trace files name it: in words, and for a main transition
// the index of the action it takes or the call it returns from.
struct WitnessStep {
  std::string what;
  std::optional<std::uint32_t> action;
};
// Every witness transition with the state before it, found by walking the witness through the
// transition system: a main thread's return from a call before its match (C4) is a main
// transition that takes no new action, which counting main transitions would misname. Past a
// transition the system refuses, the rest are named without their state.
std::vector<WitnessStep> witness_steps(const System& model,
                                       const std::vector<dag::Transition>& witness);

// The whole answer in words: verdict and rank count, then the violation and the numbered
// witness, or the bound hit, then the figures.
std::string report(const System& model, const Result& result);

}  // namespace ordo::checker
