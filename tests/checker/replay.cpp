#include "tests/checker/replay.hpp"

namespace ordo::checker::testing {

exec::Step to_exec(const Step& step) {
  exec::Step s;
  switch (step.kind) {
    case Step::Kind::main:
      s.kind = exec::Step::Kind::main;
      break;
    case Step::Kind::start:
      s.kind = exec::Step::Kind::start;
      break;
    case Step::Kind::complete:
      s.kind = exec::Step::Kind::complete;
      break;
  }
  s.rank = step.rank;
  s.op = step.op;
  s.thread = step.thread;
  return s;
}

std::optional<exec::RunOutcome> replay(exec::ControlledRun& run,
                                       const std::vector<Step>& witness) {
  for (const Step& step : witness) run.step(to_exec(step));
  return run.outcome();
}

}  // namespace ordo::checker::testing
