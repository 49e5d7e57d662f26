#include "replay/replay.hpp"

#include "runtime/engine/errors.hpp"

namespace ordo::replay {

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
  if (r.violation) r.seen = checker::property_of(*r.violation);
  return r;
}

std::optional<std::string> problem(const Replay& r, const checker::Result& result) {
  if (!result.property || !result.violation) return "the checker reports no violation";
  if (r.illegal) return *r.illegal;
  if (!r.outcome) return "the runtime's run has not ended after the witness";
  const std::string ended = r.outcome->report.empty() ? std::string("finished") : r.outcome->report;
  if (r.transitions_taken < result.witness.size()) {
    return "the runtime's run ended after " + std::to_string(r.transitions_taken) +
           " of the witness's " + std::to_string(result.witness.size()) + " transitions: " + ended;
  }
  if (!r.seen || !r.violation) {
    return "the runtime's run ended in no violation (" + ended + "), the checker's in " +
           std::string(checker::to_string(*result.property));
  }
  if (*r.seen != *result.property) {
    return "the runtime saw " + std::string(checker::to_string(*r.seen)) + ", the checker " +
           std::string(checker::to_string(*result.property)) + ":\n" + comm::describe(*r.violation);
  }
  if (!comm::same_violation(*r.violation, *result.violation)) {
    return "the runtime saw a different violation:\n" + comm::describe(*r.violation);
  }
  return std::nullopt;
}

bool reproduces(const Replay& r, const checker::Result& result) { return !problem(r, result); }

}  // namespace ordo::replay
