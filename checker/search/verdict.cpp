#include "checker/search/verdict.hpp"

#include <cstdio>

#include "runtime/dag/action_text.hpp"

namespace ordo::checker {

Property property_of(const comm::Violation& v) {
  if (std::holds_alternative<comm::Mismatch>(v)) return Property::p1_order;
  if (std::holds_alternative<comm::ThreadRuleBreak>(v)) return Property::p2_thread_rule;
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
  if (transition.kind == dag::Transition::Kind::main) {
    return rank + (pc ? dag::describe_main(p, model.job().comms, *pc) : std::string("main action"));
  }
  const std::string op = transition.op < p.ops.size() ? "'" + p.ops[transition.op].name + "'"
                                                      : "op " + std::to_string(transition.op);
  if (transition.kind == dag::Transition::Kind::complete) return rank + "complete " + op;
  if (transition.kind == dag::Transition::Kind::issue) return rank + "issue " + op;
  std::string line = rank + "claim " + op;
  if (transition.thread) line += " thread " + std::to_string(*transition.thread);
  return line;
}

std::string report(const System& model, const Result& result) {
  std::string s =
      std::string(to_string(result.verdict)) + " at " + std::to_string(result.ranks) + " rank(s)";
  if (result.verdict == Verdict::unsafe && result.property && result.violation) {
    s += ": " + std::string(to_string(*result.property)) + "\n" + describe(*result.violation);
    s += "\nwitness (" + std::to_string(result.witness.size()) +
         " transitions from the initial state):";
    std::vector<std::uint32_t> pc(model.ranks(), 0);
    for (std::size_t i = 0; i < result.witness.size(); ++i) {
      const dag::Transition& transition = result.witness[i];
      std::optional<std::uint32_t> at;
      if (transition.kind == dag::Transition::Kind::main && transition.rank < model.ranks())
        at = pc[transition.rank]++;
      s += "\n  " + std::to_string(i + 1) + ". " + describe(model, transition, at);
    }
  } else if (result.verdict == Verdict::unknown && result.bound) {
    s += ": bound " + std::string(to_string(*result.bound)) + " = " +
         std::to_string(result.bound_value) + " reached before the exploration ended";
  } else if (result.verdict == Verdict::safe) {
    s += ": P1-P4 hold in every reachable state";
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
