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
  if (r.outcome && r.outcome->end == exec::RunEnd::violation) {
    if (const std::optional<comm::Violation> v = run.violation()) {
      r.violation = v;
      if (std::holds_alternative<comm::Mismatch>(*v)) r.seen = checker::Property::p1_order;
      if (std::holds_alternative<comm::ThreadRuleBreak>(*v)) {
        r.seen = checker::Property::p2_thread_rule;
      }
      if (std::holds_alternative<comm::Deadlock>(*v)) r.seen = checker::Property::p3_deadlock;
    }
  }
  if (r.outcome && r.outcome->end == exec::RunEnd::deadlock) {
    r.seen = checker::Property::p3_deadlock;
    r.violation = run.deadlock();
  }
  return r;
}

bool reproduces(const Replay& replay, const checker::Result& result) {
  if (!result.property || !replay.seen || !replay.violation || !result.violation) return false;
  // A deadlock without a pending collective (P4) is the same stuck state to the runtime.
  const bool same_property =
      *replay.seen == *result.property || (*replay.seen == checker::Property::p3_deadlock &&
                                           *result.property == checker::Property::p4_termination);
  return same_property && comm::same_violation(*replay.violation, *result.violation);
}

}  // namespace ordo::tools
