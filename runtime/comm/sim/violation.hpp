// What the simulated world reports instead of corrupting data or hanging: a mismatched match, a
// broken MPI thread rule, or a deadlock. Each carries enough to name the ranks, the communicator,
// the call and what every party was doing.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "runtime/comm/communicator.hpp"

namespace ordo::comm::sim {

// One collective as a rank issued it.
struct IssuedCall {
  dag::Rank rank = 0;  // world rank
  Call call;
  bool blocking = true;  // the issuer holds its thread until the call completes
  std::string issuer;    // who called: "main" or the engine op's name
};

// The n-th calls on a communicator disagree (design.md §2, P1).
struct Mismatch {
  std::string comm;
  std::uint64_t seq = 0;  // 0-based position in the communicator's call order
  std::vector<IssuedCall> calls;  // the calls present when the disagreement was seen
};

// Two collectives of one rank in flight on one communicator, at least one blocking (P2).
struct ThreadRuleBreak {
  std::string comm;
  IssuedCall in_flight;
  IssuedCall second;
};

// Every live rank is blocked and nothing in flight can unblock any of them (P3).
struct Deadlock {
  std::vector<std::string> waits;  // one line per blocked party, rank first
};

using Violation = std::variant<Mismatch, ThreadRuleBreak, Deadlock>;

// A multi-line human report.
std::string describe(const Violation& violation);
// "mismatch", "thread-rule" or "deadlock".
std::string kind_name(const Violation& violation);

// What every collective of an aborted world fails with.
class ViolationError : public std::runtime_error {
 public:
  explicit ViolationError(const Violation& violation);
  const Violation& violation() const { return violation_; }

 private:
  Violation violation_;
};

}  // namespace ordo::comm::sim
