// One var's access state and the grant algorithm (docs/semantics.md, E1-E3): consecutive reads
// share the var, a write holds it alone, and nothing overtakes a queued access, so a read submitted
// after a waiting write waits behind it and two writes are granted in submit order.
#pragma once

#include <cassert>
#include <cstdint>
#include <type_traits>

#include "runtime/engine/rules/access_queue.hpp"

namespace ordo::engine {

// The failure a var carries. failure_id names the failure so that surfacing it at one var clears
// it at every var it reached; the error itself is kept once, by Failures, so that a var (and a
// copy of a whole engine state) is plain bytes.
struct Poison {
  std::uint64_t failure_id = 0;
  bool active() const { return failure_id != 0; }
};

struct VarState {
  std::uint32_t reads_active = 0;
  bool write_active = false;
  AccessQueue waiting;
  // Writes complete in submit order, so "every write submitted so far completed" is a count
  // compare.
  std::uint64_t writes_submitted = 0;
  std::uint64_t writes_completed = 0;
  Poison poison;
};

static_assert(std::is_trivially_copyable_v<VarState>);

inline bool var_compatible(const VarState& var, AccessMode mode) {
  if (mode == AccessMode::read) return !var.write_active;
  return !var.write_active && var.reads_active == 0;
}

inline void var_grant(VarState& var, AccessMode mode) {
  assert(var_compatible(var, mode));
  if (mode == AccessMode::read) {
    ++var.reads_active;
  } else {
    var.write_active = true;
  }
}

// Appends an access at submit time. It is granted at once only when nothing waits ahead of it and
// the var's holders are compatible; otherwise it queues. Returns whether it was granted.
inline bool var_append(VarState& var, AccessNodes& nodes, Access access) {
  if (access.mode == AccessMode::write) ++var.writes_submitted;
  if (var.waiting.empty() && var_compatible(var, access.mode)) {
    var_grant(var, access.mode);
    return true;
  }
  nodes.push_back(var.waiting, access);
  return false;
}

// Grants from the head of the queue: every consecutive read while no write holds the var, or one
// write once the var is free. Calls granted(slot) per grant, in queue order.
template <typename Granted>
void var_grant_from_head(VarState& var, AccessNodes& nodes, Granted&& granted) {
  while (!var.waiting.empty()) {
    const Access head = nodes.front(var.waiting);
    if (!var_compatible(var, head.mode)) return;
    nodes.pop_front(var.waiting);
    var_grant(var, head.mode);
    granted(head.slot);
    if (head.mode == AccessMode::write) return;
  }
}

// Releases the grant a finishing op held, then grants what became possible.
template <typename Granted>
void var_release(VarState& var, AccessNodes& nodes, AccessMode mode, Granted&& granted) {
  if (mode == AccessMode::read) {
    assert(var.reads_active > 0 && !var.write_active);
    --var.reads_active;
  } else {
    assert(var.write_active && var.reads_active == 0);
    var.write_active = false;
    ++var.writes_completed;
    assert(var.writes_completed <= var.writes_submitted);
  }
  var_grant_from_head(var, nodes, granted);
}

}  // namespace ordo::engine
