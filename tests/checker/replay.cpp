#include "tests/checker/replay.hpp"

#include "tools/replay/replay.hpp"

namespace ordo::checker::testing {

std::optional<exec::RunOutcome> replay(exec::ControlledRun& run, const std::vector<Step>& witness) {
  for (const Step& step : witness) run.step(tools::to_exec(step));
  return run.outcome();
}

}  // namespace ordo::checker::testing
