// What each member of a call receives in the simulated world (docs/dag-format.md, "The buffer of a
// collective"), from what each member sent: at the match for every member still in the call, and
// before it for a member whose needs are met (docs/semantics.md, C4). Reductions run in
// communicator-rank order, so a result is one value whatever the timing.
#pragma once

#include <cstddef>
#include <span>

#include "runtime/comm/rules/call.hpp"

namespace ordo::comm::sim {

// One member's part: the data it sent (its buffer as issued, or the buffer itself where nothing
// was copied) and its buffer. `sent` may be `into` itself; `into` is null for a member that
// receives nothing now (it returned early).
struct MemberData {
  const std::byte* sent = nullptr;
  std::byte* into = nullptr;
};

// The match: every member in communicator-rank order, each receiving what its kind and role give.
void move_at_match(const Call& call, std::span<const MemberData> members);

// An early return of `member` (its needs met): what it receives now, from the members it needs.
// `members[m].sent` is null for a member that has not issued. Kinds whose member receives
// nothing before the match (a bcast or scatter root, a reduce or gather non-root) move nothing.
void move_early(const Call& call, std::size_t member, std::span<const MemberData> members);

}  // namespace ordo::comm::sim
