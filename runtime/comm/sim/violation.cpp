#include "runtime/comm/sim/violation.hpp"

#include <sstream>

#include "runtime/comm/call_check.hpp"

namespace ordo::comm::sim {

namespace {

std::string line(const IssuedCall& c, const std::string& comm) {
  return "rank " + std::to_string(c.rank) + " (" + c.issuer + "): " + comm::describe(c.call, comm) +
         (c.blocking ? "" : " [non-blocking]");
}

struct Describe {
  std::string operator()(const Mismatch& m) const {
    std::ostringstream out;
    out << "collective mismatch on '" << m.comm << "' at call " << m.seq << ":";
    for (const IssuedCall& c : m.calls) out << "\n  " << line(c, m.comm);
    return out.str();
  }
  std::string operator()(const ThreadRuleBreak& t) const {
    return "MPI thread rule broken on '" + t.comm + "': rank " + std::to_string(t.second.rank) +
           " issued a collective while another was in flight on the same communicator\n  " +
           "in flight: " + line(t.in_flight, t.comm) + "\n  second:    " + line(t.second, t.comm);
  }
  std::string operator()(const Deadlock& d) const {
    std::string s = "deadlock: every rank is blocked";
    for (const std::string& w : d.waits) s += "\n  " + w;
    return s;
  }
};

struct KindName {
  std::string operator()(const Mismatch&) const { return "mismatch"; }
  std::string operator()(const ThreadRuleBreak&) const { return "thread-rule"; }
  std::string operator()(const Deadlock&) const { return "deadlock"; }
};

}  // namespace

std::string describe(const Violation& violation) { return std::visit(Describe{}, violation); }
std::string kind_name(const Violation& violation) { return std::visit(KindName{}, violation); }

ViolationError::ViolationError(const Violation& violation)
    : std::runtime_error(describe(violation)), violation_(violation) {}

}  // namespace ordo::comm::sim
