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

#include "runtime/comm/rules/peer_state.hpp"
#include "runtime/comm/rules/violation.hpp"

namespace ordo::comm {

// A call present at a sequence number. `tag` is the holder's own name for the issuing party
// (the checker's op or main action, the simulated world's delivery); matching never reads it.
struct Posted {
  IssuedCall call;
  std::uint64_t tag = 0;
  // The issuer has returned from the call before its match (C4: its needs were met). It holds
  // no thread for the thread rule, and the match no longer tells it anything.
  bool returned = false;
};

// A member whose call may now complete before its match (C4), and the tag it was posted with.
struct MayReturn {
  std::size_t member = 0;
  std::uint64_t tag = 0;
};
// Still waiting for some members; `may_return` names the calls at this position whose needs this
// issue met (the issuer's own, when it needs no one; a bcast's non-roots, when the root issues).
struct Pending {
  std::uint64_t seq = 0;
  std::vector<MayReturn> may_return;
};
// Every member has issued: the tags of the calls that complete now, in communicator-rank order,
// and for each whether its issuer had already returned from it (and so learns nothing now).
struct Matched {
  std::uint64_t seq = 0;
  std::vector<std::uint64_t> tags;
  std::vector<bool> returned;
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
  // The sequence number of the member's unmatched call with this tag that its issuer has not
  // returned from, if any (a main thread posts every call with one tag, but is inside one at most).
  std::optional<std::uint64_t> seq_of(std::size_t member, std::uint64_t tag) const;
  // The members that have not issued the seq-th call yet.
  std::vector<std::size_t> missing_members(std::uint64_t seq) const;
  // Whether the member's unmatched seq-th call may complete before its match: it has not
  // returned, and the members whose issues it needs have issued (C4, comm::needs_met).
  bool may_return(std::size_t member, std::uint64_t seq) const;
  // The member returns from its unmatched seq-th call; requires may_return.
  void mark_returned(std::size_t member, std::uint64_t seq);
  // Forgets every unmatched call (an aborted world fails them all).
  void clear();

  // The communicator's point-to-point calls (send, recv), matched by envelope, apart from the
  // collectives' call order (MPI-3.1 §5.1: messages of collectives and of point-to-point calls
  // are never confused). `issue` takes collectives only.
  const PeerState& peers() const { return peers_; }
  PeerState& peers() { return peers_; }

 private:
  dag::CommId comm_;
  std::vector<std::uint64_t> next_seq_;
  std::vector<std::vector<std::uint64_t>> in_flight_;  // per member, in issue order
  std::map<std::uint64_t, Slot> slots_;
  PeerState peers_;
};

}  // namespace ordo::comm
