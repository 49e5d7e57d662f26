#include "checker/search/verdict.hpp"

#include <cstdio>

#include "checker/system/transitions.hpp"
#include "runtime/dag/action_text.hpp"

namespace ordo::checker {

Property property_of(const comm::Violation& v) {
  if (std::holds_alternative<comm::Mismatch>(v)) return Property::p1_order;
  if (std::holds_alternative<comm::ThreadRuleBreak>(v)) return Property::p2_thread_rule;
  if (std::holds_alternative<comm::BufferRace>(v)) return Property::p5_buffers;
  return comm::collective_involved(std::get<comm::Deadlock>(v)) ? Property::p3_deadlock
                                                                : Property::p4_termination;
}

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::safe:
      return "safe";
    case Verdict::unsafe:
      return "unsafe";
    case Verdict::unknown:
      return "unknown";
  }
  return "?";
}

std::string_view to_string(Property property) {
  switch (property) {
    case Property::p1_order:
      return "P1 order consistency";
    case Property::p2_thread_rule:
      return "P2 thread rule";
    case Property::p3_deadlock:
      return "P3 deadlock freedom";
    case Property::p4_termination:
      return "P4 termination";
    case Property::p5_buffers:
      return "P5 buffer safety";
  }
  return "?";
}

std::string_view to_string(Bound bound) {
  switch (bound) {
    case Bound::states_max:
      return "states_max";
    case Bound::seconds_max:
      return "seconds_max";
    case Bound::bytes_max:
      return "bytes_max";
  }
  return "?";
}

std::string describe(const System& model, const dag::Transition& transition,
                     std::optional<std::uint32_t> pc) {
  const std::string rank = "rank " + std::to_string(transition.rank) + ": ";
  if (transition.rank >= model.ranks()) return rank + "(no such rank)";
  const dag::Program& p = model.program(transition.rank);
  const std::string from =
      transition.source ? ", taking the message of rank " + std::to_string(*transition.source) : "";
  if (transition.kind == dag::Transition::Kind::main) {
    return rank +
           (pc ? dag::describe_main(p, model.job().comms, *pc, transition.source.has_value())
               : std::string("main action")) +
           from;
  }
  const std::string op = transition.op < p.ops.size() ? "'" + p.ops[transition.op].name + "'"
                                                      : "op " + std::to_string(transition.op);
  if (transition.kind == dag::Transition::Kind::complete) return rank + "complete " + op;
  if (transition.kind == dag::Transition::Kind::match) return rank + "match " + op + from;
  if (transition.kind == dag::Transition::Kind::issue) return rank + "issue " + op;
  std::string line = rank + "claim " + op;
  if (transition.thread) line += " thread " + std::to_string(*transition.thread);
  return line;
}

std::vector<WitnessStep> witness_steps(const System& model,
                                       const std::vector<dag::Transition>& witness) {
  std::vector<WitnessStep> steps;
  steps.reserve(witness.size());
  State state = initial_state(model);
  bool walking = true;
  for (const dag::Transition& t : witness) {
    WitnessStep step;
    if (!walking || t.rank >= model.ranks()) {
      step.what = describe(model, t);
      walking = false;
      steps.push_back(std::move(step));
      continue;
    }
    const RankState& r = state.rank(t.rank);
    const dag::Program& p = model.program(t.rank);
    const std::string rank = "rank " + std::to_string(t.rank) + ": ";
    if (t.kind == dag::Transition::Kind::main) {
      step.action = r.pc;
      const auto* call =
          r.pc < p.main.size() ? std::get_if<dag::CollectiveAction>(&p.main[r.pc]) : nullptr;
      step.what = r.main_blocked && call != nullptr && !t.source
                      ? rank + "main action " + std::to_string(r.pc) + ": return from " +
                            describe(model, call->collective) + " before its match"
                      : describe(model, t, r.pc);
    } else if (t.kind == dag::Transition::Kind::complete && returns_early(state, t)) {
      step.what = describe(model, t) + ", its call returning before its match";
    } else {
      step.what = describe(model, t);
    }
    steps.push_back(std::move(step));
    try {
      if (apply(model, state, t)) walking = false;  // the violation: nothing follows it
    } catch (const std::logic_error&) {
      walking = false;
    }
  }
  return steps;
}

std::string report(const System& model, const Result& result) {
  std::string s =
      std::string(to_string(result.verdict)) + " at " + std::to_string(result.ranks) + " rank(s)";
  if (result.verdict == Verdict::unsafe && result.property && result.violation) {
    s += ": " + std::string(to_string(*result.property)) + "\n" + describe(*result.violation);
    s += "\nwitness (" + std::to_string(result.witness.size()) +
         " transitions from the initial state):";
    const std::vector<WitnessStep> steps = witness_steps(model, result.witness);
    for (std::size_t i = 0; i < steps.size(); ++i) {
      s += "\n  " + std::to_string(i + 1) + ". " + steps[i].what;
    }
  } else if (result.verdict == Verdict::unknown && result.bound) {
    s += ": bound " + std::string(to_string(*result.bound)) + " = " +
         std::to_string(result.bound_value) + " reached before the exploration ended";
  } else if (result.verdict == Verdict::safe) {
    s += ": P1-P5 hold in every reachable state";
  }
  char figures[160];
  std::snprintf(figures, sizeof figures,
                "\n%llu states, %llu transitions, depth %llu, %.3f s, %.0f states/s",
                static_cast<unsigned long long>(result.stats.states),
                static_cast<unsigned long long>(result.stats.transitions),
                static_cast<unsigned long long>(result.stats.depth_max), result.stats.seconds,
                result.stats.states_per_second);
  return s + figures;
}

}  // namespace ordo::checker
