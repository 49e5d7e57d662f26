// A checker witness replayed on the runtime for the test suites: replay::replay (the one replay,
// replay/replay.hpp), with a witness that is not a legal schedule there, or whose run ends
// before the witness's last transition, thrown as std::logic_error saying why, which fails the
// test that replays it.
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
