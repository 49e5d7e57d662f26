#include "tools/replay/replay.hpp"

#include "runtime/engine/errors.hpp"

namespace ordo::tools {

Replay replay(exec::ControlledRun& run, const std::vector<dag::Transition>& transitions) {
  Replay r;
  for (const dag::Transition& transition : transitions) {
    if (run.outcome()) break;
    try {
      run.take(transition);
    } catch (const engine::ScheduleError& e) {
      r.illegal = "transition " + std::to_string(r.transitions_taken + 1) + " (" +
                  run.describe(transition) + ") is not legal on the runtime: " + e.what();
      return r;
    }
    ++r.transitions_taken;
  }
  r.outcome = run.outcome();
  if (r.outcome && r.outcome->end == exec::RunEnd::violation) r.violation = run.violation();
  if (r.outcome && r.outcome->end == exec::RunEnd::deadlock) r.violation = run.deadlock();
  // P3 or P4 as the checker tells them, by the deadlock's description.
  if (r.violation) r.seen = checker::property_of(*r.violation);
  return r;
}

bool reproduces(const Replay& replay, const checker::Result& result) {
  if (!result.property || !replay.seen || !replay.violation || !result.violation) return false;
  return *replay.seen == *result.property &&
         comm::same_violation(*replay.violation, *result.violation);
}

}  // namespace ordo::tools
