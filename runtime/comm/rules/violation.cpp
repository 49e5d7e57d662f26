#include "runtime/comm/rules/violation.hpp"

#include <algorithm>

namespace ordo::comm {

std::string describe(const IssuedCall& c, std::string_view comm_name) {
  return "rank " + std::to_string(c.issuer.rank) + " (" + c.issuer.name + ", " +
         (c.blocking ? "blocking" : "non-blocking") + "): " + describe(c.call, comm_name);
}

namespace {

// A message's place is on its channel (docs/semantics.md, M1-M2), a collective's in the
// communicator's call order.
std::string position(const Mismatch& m) {
  const auto send = std::find_if(m.calls.begin(), m.calls.end(), [](const IssuedCall& c) {
    return c.call.kind == dag::CollectiveKind::send;
  });
  const auto recv = std::find_if(m.calls.begin(), m.calls.end(), [](const IssuedCall& c) {
    return c.call.kind == dag::CollectiveKind::recv;
  });
  if (send == m.calls.end() || recv == m.calls.end()) return "call " + std::to_string(m.seq);
  return "message " + std::to_string(m.seq) + " from rank " + std::to_string(send->issuer.rank) +
         " to rank " + std::to_string(recv->issuer.rank) + ", tag " +
         std::to_string(send->call.tag);
}

}  // namespace

std::string describe(const BufferToucher& t) {
  const std::string bytes =
      "bytes " + std::to_string(t.first) + " to " + std::to_string(t.first + t.bytes);
  std::string who = t.party == "main" ? "the main thread" : "op '" + t.party + "'";
  if (!t.call) return who + (t.writes ? " writes " : " reads ") + bytes;
  return who + "'s " + describe(*t.call, t.comm_name) + (t.writes ? " writes " : " reads ") + bytes;
}

namespace {

struct Describe {
  std::string operator()(const Mismatch& m) const {
    std::string s = "P1 mismatch on communicator '" + m.comm_name + "' at " + position(m) + ":";
    for (const IssuedCall& c : m.calls) s += "\n  " + describe(c, m.comm_name);
    return s;
  }
  std::string operator()(const ThreadRuleBreak& t) const {
    return "P2 thread rule broken on communicator '" + t.comm_name + "': rank " +
           std::to_string(t.second.issuer.rank) +
           " issued a collective while another was in flight there\n  in flight: " +
           describe(t.in_flight, t.comm_name) + "\n  issued:    " + describe(t.second, t.comm_name);
  }
  std::string operator()(const Deadlock& d) const {
    std::string s = "deadlock: nothing can move and " + std::to_string(d.ranks_blocked.size()) +
                    " rank(s) have not finished:";
    for (const std::string& w : wait_lines(d)) s += "\n  " + w;
    return s;
  }
  std::string operator()(const BufferRace& b) const {
    return "P5 buffer race on rank " + std::to_string(b.rank) + ", var '" + b.var +
           "': a touch began while another was in flight, one of them writing\n  in flight: " +
           describe(b.ongoing) + "\n  began:     " + describe(b.starting);
  }
};

}  // namespace

std::string describe(const Violation& violation) { return std::visit(Describe{}, violation); }

std::string kind_name(const Violation& violation) {
  if (std::holds_alternative<Mismatch>(violation)) return "P1 mismatch";
  if (std::holds_alternative<ThreadRuleBreak>(violation)) return "P2 thread rule";
  if (std::holds_alternative<BufferRace>(violation)) return "P5 buffer race";
  return "deadlock";
}

bool same_violation(const Violation& a, const Violation& b) { return a == b; }

ViolationError::ViolationError(const Violation& violation)
    : std::runtime_error(describe(violation)), violation_(violation) {}

}  // namespace ordo::comm
