// What breaks a collective property (docs/semantics.md, P1-P4), in one type for everything that
// finds it: the simulated world at run time, and the checker, which must report a violation the
// runtime would see in the same terms so that a witness and its replay can be compared field by
// field. Each case carries enough to name every party.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "runtime/comm/rules/call.hpp"

namespace ordo::comm {

// Who issued a call: a world rank and the party on it, "main" or the engine op's name (op names
// are unique within a program, so the pair names one party).
struct Issuer {
  dag::Rank rank = 0;
  std::string name;
  friend bool operator==(const Issuer&, const Issuer&) = default;
};

struct IssuedCall {
  Issuer issuer;
  Call call;
  bool blocking = true;  // the issuer holds its thread until the call completes
  friend bool operator==(const IssuedCall&, const IssuedCall&) = default;
};

// P1: the seq-th calls on a communicator disagree. `calls` are the calls present when the
// disagreement was seen, in communicator-rank order, the offending one last.
struct Mismatch {
  dag::CommId comm = 0;
  std::string comm_name;
  std::uint64_t seq = 0;  // 0-based position in the communicator's call order
  std::vector<IssuedCall> calls;
  friend bool operator==(const Mismatch&, const Mismatch&) = default;
};

// P2: a rank issued `second` on a communicator while `in_flight`, a blocking call, was still
// unmatched there.
struct ThreadRuleBreak {
  dag::CommId comm = 0;
  std::string comm_name;
  IssuedCall in_flight;
  IssuedCall second;
  friend bool operator==(const ThreadRuleBreak&, const ThreadRuleBreak&) = default;
};

// One edge of a deadlock's wait-for graph: a party of rank `from` is in the seq-th call on a
// communicator that rank `to` has not issued yet.
struct WaitEdge {
  dag::Rank from = 0;
  std::string party;  // "main" or the op's name
  std::string comm_name;
  std::uint64_t seq = 0;
  dag::Rank to = 0;
  friend bool operator==(const WaitEdge&, const WaitEdge&) = default;
};

// P3 (P4 when no collective is involved): nothing can move and some rank has not finished.
struct Deadlock {
  std::vector<dag::Rank> ranks_blocked;
  std::vector<std::string> waits;  // one line per blocked party, rank first
  std::vector<WaitEdge> edges;
};

using Violation = std::variant<Mismatch, ThreadRuleBreak, Deadlock>;

// A multi-line report.
std::string describe(const Violation& violation);
// "P1 mismatch", "P2 thread rule" or "deadlock".
std::string kind_name(const Violation& violation);
// One line for a call as reports print it: "rank 1 (ar.3, non-blocking): allreduce ...".
std::string describe(const IssuedCall& call, std::string_view comm_name);
// Whether two reports name the same violation: the same kind and, for P1 and P2, the same
// communicator, position and calls. Deadlocks compare by the ranks blocked only, since the
// runtime and the checker word their waits differently.
bool same_violation(const Violation& a, const Violation& b);

// What every collective of an aborted simulated world fails with.
class ViolationError : public std::runtime_error {
 public:
  explicit ViolationError(const Violation& violation);
  const Violation& violation() const { return violation_; }

 private:
  Violation violation_;
};

}  // namespace ordo::comm
