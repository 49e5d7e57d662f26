// One transition of a multi-rank execution (docs/semantics.md, S1-S4): a rank's main thread takes
// its next action, a pool worker claims the op at the head of its pool's run queue, a claimed
// collective op issues its call, or an op completes. Ops are named by program op id, so a
// sequence of transitions is a schedule that the checker explores and the runtime's controlled
// run replays as written; both take it from here.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "runtime/dag/program.hpp"

namespace ordo::dag {

struct Transition {
  // `match` (S9): an op's recv from any source takes the message of `source`.
  enum class Kind : std::uint8_t { main, claim, issue, complete, match };
  Kind kind = Kind::main;
  Rank rank = 0;
  OpId op = 0;                          // claim, issue, complete and match
  std::optional<std::uint32_t> thread;  // claim: the pool thread (none: the lowest free one)
  // match, and a main thread blocked in a recv from any source: the world rank whose waiting
  // message the recv takes (docs/semantics.md, M4). Absent on every other transition.
  std::optional<Rank> source = std::nullopt;
  friend bool operator==(const Transition&, const Transition&) = default;
};

// "main", "claim", "issue", "complete": the spelling of the trace format.
std::string_view to_string(Transition::Kind kind);
// Every spelling, indexed by Kind.
std::span<const std::string_view> transition_kind_names();

}  // namespace ordo::dag
