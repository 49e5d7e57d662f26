// One communicator's matching state (docs/semantics.md, C1-C3) as a thread-free, copyable value:
// per member the sequence number of its next call and its calls in flight (issued, not yet
// matched by every member), and per sequence number the calls present so far. The simulated
// world holds one per communicator under its lock; the checker holds one per communicator in
// every explored state. Neither re-implements matching: `issue` is the rule.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "runtime/comm/rules/violation.hpp"

namespace ordo::comm {

// A call present at a sequence number. `tag` is the holder's own name for the issuing party
// (the checker's op or main action, the simulated world's delivery); matching never reads it.
struct Posted {
  IssuedCall call;
  std::uint64_t tag = 0;
};

// Still waiting for some members.
struct Pending {
  std::uint64_t seq = 0;
};
// Every member has issued: the tags of the calls that complete now, in communicator-rank order.
struct Matched {
  std::uint64_t seq = 0;
  std::vector<std::uint64_t> tags;
};
using IssueResult = std::variant<Pending, Matched, Violation>;

class MatchState {
 public:
  using Slot = std::vector<std::optional<Posted>>;  // by member

  MatchState(dag::CommId comm, std::size_t members);

  // Member `member` issues `call`. In this order (the order the runtime checks them): the thread
  // rule against the member's calls in flight (C3), then agreement with the calls already
  // present at its sequence number (C2: every field of the Call and whether it blocks). A
  // violation leaves the state as it was before the call.
  IssueResult issue(std::size_t member, IssuedCall call, std::uint64_t tag,
                    std::string_view comm_name);

  std::size_t members() const { return next_seq_.size(); }
  std::uint64_t next_seq(std::size_t member) const { return next_seq_.at(member); }
  const std::vector<std::uint64_t>& in_flight(std::size_t member) const {
    return in_flight_.at(member);
  }
  // Partly issued calls, by sequence number.
  const std::map<std::uint64_t, Slot>& slots() const { return slots_; }
  // The sequence number of the member's unmatched call with this tag, if any.
  std::optional<std::uint64_t> seq_of(std::size_t member, std::uint64_t tag) const;
  // The members that have not issued the seq-th call yet.
  std::vector<std::size_t> missing_members(std::uint64_t seq) const;
  // Forgets every unmatched call (an aborted world fails them all).
  void clear();

 private:
  dag::CommId comm_;
  std::vector<std::uint64_t> next_seq_;
  std::vector<std::vector<std::uint64_t>> in_flight_;  // per member, in issue order
  std::map<std::uint64_t, Slot> slots_;
};

}  // namespace ordo::comm
