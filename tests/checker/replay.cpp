#include "tests/checker/replay.hpp"

#include <stdexcept>
#include <string>

#include "replay/replay.hpp"

namespace ordo::checker::testing {

std::optional<exec::RunOutcome> replay(exec::ControlledRun& run,
                                       const std::vector<dag::Transition>& witness) {
  const replay::Replay r = replay::replay(run, witness);
  if (r.illegal) throw std::logic_error(*r.illegal);
  if (r.transitions_taken < witness.size()) {
    throw std::logic_error("the runtime's run ended after " + std::to_string(r.transitions_taken) +
                           " of the witness's " + std::to_string(witness.size()) +
                           " transitions: " + (r.outcome ? r.outcome->report : std::string()));
  }
  return r.outcome;
}

}  // namespace ordo::checker::testing
