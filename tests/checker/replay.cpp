#include "tests/checker/replay.hpp"

#include "tools/replay/replay.hpp"

namespace ordo::checker::testing {

std::optional<exec::RunOutcome> replay(exec::ControlledRun& run,
                                       const std::vector<dag::Transition>& witness) {
  for (const dag::Transition& transition : witness) run.take(transition);
  return run.outcome();
}

}  // namespace ordo::checker::testing
