// When a member's call may complete (docs/semantics.md, C4): MPI-3.1 §5.1 lets a collective
// "return as soon as its participation in the collective communication is complete", with or
// without synchronising, so a member's call needs only the issues of the members whose data it
// receives. A bcast or scatter root sends and needs no one; a non-root needs the root. A reduce or
// gather non-root sends and needs no one; the root needs every member. A scan's or exscan's member
// i needs members 0 to i. Every other kind needs every member.
// Whether a call does return that early is the MPI library's choice (Open MPI's small bcast root
// does, its allreduce does not), so the checker explores both moments and the simulated world can
// take either; the rule is stated here once for both.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/comm/rules/backend.hpp"
#include "runtime/comm/rules/call.hpp"

namespace ordo::comm {

// Whose issues the call of one member needs besides its own.
enum class CompletionNeeds : std::uint8_t {
  own,      // none: it only sends (a bcast or scatter root, a reduce or gather non-root)
  root,     // the root's: it receives the root's data (a bcast or scatter non-root)
  prefix,   // those of members 0 to itself: a scan's or exscan's reduction of them
  all,      // every member's (allreduce, barrier, reduce and gather roots, reduce_scatter,
            // allgather, alltoall)
  message,  // a recv's: it completes when it meets its send (§3b), never before; a send needs
            // no one (`own`): standard mode may buffer
};

CompletionNeeds completion_needs(const Call& call, std::size_t member);

// Whether the member's call may complete now, `issued(m)` saying whether member m issued the
// call of the same sequence number (the member itself has).
template <typename Issued>
bool needs_met(const Call& call, std::size_t member, std::size_t members, Issued&& issued) {
  switch (completion_needs(call, member)) {
    case CompletionNeeds::own:
      return true;
    case CompletionNeeds::root:
      return call.root && issued(static_cast<std::size_t>(*call.root));
    case CompletionNeeds::prefix:
      for (std::size_t m = 0; m < member; ++m) {
        if (!issued(m)) return false;
      }
      return true;
    case CompletionNeeds::all:
      for (std::size_t m = 0; m < members; ++m) {
        if (!issued(m)) return false;
      }
      return true;
    case CompletionNeeds::message:
      return false;
  }
  return false;
}

// Whether a call on `backend` may complete before its match. MPI: yes, as above. NCCL: a call
// completes when its stream runs it (D2), and ordo keeps the synchronising reading there: a
// kernel that ends before its peers launch is not explored (docs/semantics.md, §8).
bool may_complete_early(Backend backend);

}  // namespace ordo::comm
