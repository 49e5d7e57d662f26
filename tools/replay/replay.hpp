// Runs a checker schedule on the runtime: each transition on exec::ControlledRun, the real engines
// under controlled schedulers on the simulated world. This is where a checker witness meets the
// runtime, so it is the one place that links both sides.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/search/verdict.hpp"
#include "runtime/dag/transition.hpp"
#include "runtime/exec/controlled_run.hpp"

namespace ordo::tools {

struct Replay {
  std::size_t transitions_taken = 0;
  std::optional<std::string> illegal;        // the first transition the runtime refused, and why
  std::optional<exec::RunOutcome> outcome;   // how the run ended, if it did
  std::optional<checker::Property> seen;     // the property the runtime saw violated
  std::optional<comm::Violation> violation;  // what the runtime reported, if it saw one
};

// Whether the runtime saw the very violation the checker reported: the same property and the same
// violation, field by field (comm::same_violation; a deadlock's whole description).
bool reproduces(const Replay& replay, const checker::Result& result);

// Takes the transitions in order until one is refused or the run ends.
Replay replay(exec::ControlledRun& run, const std::vector<dag::Transition>& transitions);

}  // namespace ordo::tools
