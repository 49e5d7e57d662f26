// What the checker reports when a property fails, with enough to name every party: the
// communicator and sequence number of a mismatch with each rank's call, the two calls of a
// thread-rule break, and every blocked rank and thread of a deadlock with what it waits on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::checker {

// Who issued a collective: an engine op (by program op id) or the rank's main thread (by the
// index of its CollectiveAction in the main program).
struct Issuer {
  dag::Rank rank = 0;
  std::optional<dag::OpId> op;  // nullopt: the main thread
  std::uint32_t main_action = 0;
  friend bool operator==(const Issuer&, const Issuer&) = default;
};

struct CallRecord {
  Issuer issuer;
  std::string issuer_name;  // the op's name, or "main"
  dag::Collective collective;
  bool blocking = true;  // the issuer holds its thread until the call completes
};

// P1: the seq-th calls on a communicator disagree. `calls` are the calls present when the
// disagreement was seen, the offending one last.
struct Mismatch {
  dag::CommId comm = 0;
  std::string comm_name;
  std::uint64_t seq = 0;
  std::vector<CallRecord> calls;
};

// P2: a rank issued `second` on a communicator while `in_flight` was still unmatched there, and
// at least one of the two is blocking.
struct ThreadRuleBreak {
  dag::CommId comm = 0;
  std::string comm_name;
  CallRecord in_flight;
  CallRecord second;
};

// One edge of a deadlock's wait-for graph: a party of rank `from` (its main thread or an op)
// is in the seq-th call on a communicator that rank `to` has not issued yet.
struct WaitEdge {
  dag::Rank from = 0;
  std::string party;  // "main" or the op's name
  std::string comm_name;
  std::uint64_t seq = 0;
  dag::Rank to = 0;
};

// P3 (or P4 when no collective is involved): no step is possible and some rank is not finished.
struct Deadlock {
  std::vector<dag::Rank> ranks_blocked;
  std::vector<std::string> waits;  // one line per blocked party, rank first
  std::vector<WaitEdge> edges;
};

using Violation = std::variant<Mismatch, ThreadRuleBreak, Deadlock>;

// "allreduce key 3 of 4 x f32 (sum)": a collective as reports spell it.
std::string describe(const dag::Collective& collective);
// A multi-line report of the violation.
std::string describe(const Violation& violation);

}  // namespace ordo::checker
