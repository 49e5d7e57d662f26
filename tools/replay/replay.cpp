#include "tools/replay/replay.hpp"

#include "runtime/engine/errors.hpp"

namespace ordo::tools {

exec::Step to_exec(const checker::Step& step) {
  exec::Step s;
  switch (step.kind) {
    case checker::Step::Kind::main:
      s.kind = exec::Step::Kind::main;
      break;
    case checker::Step::Kind::start:
      s.kind = exec::Step::Kind::start;
      break;
    case checker::Step::Kind::complete:
      s.kind = exec::Step::Kind::complete;
      break;
  }
  s.rank = step.rank;
  s.op = step.op;
  s.thread = step.thread;
  return s;
}

Replay replay(exec::ControlledRun& run, const std::vector<checker::Step>& steps) {
  Replay r;
  for (const checker::Step& step : steps) {
    if (run.outcome()) break;
    try {
      run.step(to_exec(step));
    } catch (const engine::ScheduleError& e) {
      r.illegal = "step " + std::to_string(r.steps_taken + 1) + " (" + run.describe(to_exec(step)) +
                  ") is not legal on the runtime: " + e.what();
      return r;
    }
    ++r.steps_taken;
  }
  r.outcome = run.outcome();
  if (r.outcome && r.outcome->end == exec::RunEnd::violation) {
    if (const std::optional<comm::sim::Violation> v = run.violation()) {
      if (std::holds_alternative<comm::sim::Mismatch>(*v)) r.seen = checker::Property::p1_order;
      if (std::holds_alternative<comm::sim::ThreadRuleBreak>(*v)) {
        r.seen = checker::Property::p2_thread_rule;
      }
      if (std::holds_alternative<comm::sim::Deadlock>(*v)) r.seen = checker::Property::p3_deadlock;
    }
  }
  if (r.outcome && r.outcome->end == exec::RunEnd::deadlock)
    r.seen = checker::Property::p3_deadlock;
  return r;
}

}  // namespace ordo::tools
