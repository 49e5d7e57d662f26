// Replays a checker witness on the runtime: each transition on exec::ControlledRun, the real
// engines under controlled schedulers on the simulated world, and says whether the run ends in the
// violation the checker reported. The checker and the runtime name transitions alike (rank, main /
// claim / issue / complete, program op id, pool thread), so a witness replays as written. Every
// replay of a witness goes through here: `ordo replay`, `ordo fuzz`, the fuzz properties and the
// test suites.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "checker/search/verdict.hpp"
#include "runtime/dag/transition.hpp"
#include "runtime/exec/controlled_run.hpp"

namespace ordo::replay {

struct Replay {
  std::size_t transitions_taken = 0;
  std::optional<std::string> illegal;        // the first transition the runtime refused, and why
  std::optional<exec::RunOutcome> outcome;   // how the run ended, if it did
  std::optional<checker::Property> seen;     // the property the runtime saw violated (property_of)
  std::optional<comm::Violation> violation;  // what the runtime reported, if it saw one
};

// Takes the transitions in order until one is refused or the run ends.
Replay replay(exec::ControlledRun& run, const std::vector<dag::Transition>& transitions);

// Why the replay of `result`'s witness does not reproduce what `result` reports, in words; nullopt
// when it does: every transition taken, the run ended there and not before (the witness's last
// transition causes the violation or leads to the stuck state), in the same property and the same
// violation, field by field (comm::same_violation; for a deadlock, the same description).
std::optional<std::string> problem(const Replay& r, const checker::Result& result);
bool reproduces(const Replay& r, const checker::Result& result);

}  // namespace ordo::replay
