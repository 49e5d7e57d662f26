// Runs a checker schedule on the runtime: each step on exec::ControlledRun, the real engines
// under controlled schedulers on the simulated world. This is where a checker witness meets the
// runtime, so it is the one place that links both sides.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/step.hpp"
#include "checker/verdict.hpp"
#include "runtime/exec/controlled_run.hpp"

namespace ordo::tools {

exec::Step to_exec(const checker::Step& step);

struct Replay {
  std::size_t steps_taken = 0;
  std::optional<std::string> illegal;       // the first step the runtime refused, and why
  std::optional<exec::RunOutcome> outcome;  // how the run ended, if it did
  std::optional<checker::Property> seen;    // the property the runtime saw violated
};

// Takes the steps in order until one is refused or the run ends.
Replay replay(exec::ControlledRun& run, const std::vector<checker::Step>& steps);

}  // namespace ordo::tools
