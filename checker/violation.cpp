#include "checker/violation.hpp"

#include "runtime/dag/names.hpp"

namespace ordo::checker {

std::string describe(const dag::Collective& c) {
  std::string s(dag::to_string(c.kind));
  s += " key " + std::to_string(c.key);
  if (c.kind != dag::CollectiveKind::barrier) {
    s += " of " + std::to_string(c.count) + " x " + std::string(dag::to_string(c.dtype));
  }
  if (c.reduction != dag::Reduction::none)
    s += " (" + std::string(dag::to_string(c.reduction)) + ")";
  if (c.root) s += " root " + std::to_string(*c.root);
  return s;
}

namespace {

std::string call_line(const CallRecord& call) {
  return "rank " + std::to_string(call.issuer.rank) + " (" + call.issuer_name + ", " +
         (call.blocking ? "blocking" : "non-blocking") + "): " + describe(call.collective);
}

}  // namespace

std::string describe(const Violation& violation) {
  if (const auto* m = std::get_if<Mismatch>(&violation)) {
    std::string s = "P1 mismatch on communicator '" + m->comm_name + "' at call " +
                    std::to_string(m->seq) + ":";
    for (const CallRecord& c : m->calls) s += "\n  " + call_line(c);
    return s;
  }
  if (const auto* t = std::get_if<ThreadRuleBreak>(&violation)) {
    return "P2 thread rule broken on communicator '" + t->comm_name +
           "':\n  in flight: " + call_line(t->in_flight) + "\n  issued:    " + call_line(t->second);
  }
  const auto& d = std::get<Deadlock>(violation);
  std::string s = "deadlock: no step is possible and " + std::to_string(d.ranks_blocked.size()) +
                  " rank(s) have not finished:";
  for (const std::string& w : d.waits) s += "\n  " + w;
  return s;
}

}  // namespace ordo::checker
