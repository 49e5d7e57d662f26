// Replays a checker witness on the runtime: every transition on exec::ControlledRun, which runs the
// real engines under controlled schedulers on the simulated world. A witness that is not a legal
// schedule there throws engine::ScheduleError, which fails the test that replays it.
#pragma once

#include <optional>
#include <vector>

#include "runtime/dag/transition.hpp"
#include "runtime/exec/controlled_run.hpp"

namespace ordo::checker::testing {

// The runtime's outcome after the witness; nullopt when the run has not ended there.
std::optional<exec::RunOutcome> replay(exec::ControlledRun& run,
                                       const std::vector<dag::Transition>& witness);

}  // namespace ordo::checker::testing
