// The controlled scheduler's choices. Start takes a pool's next op onto a thread and, unless the
// op's body is a transition of its own (body_is_own_transition: a collective op), runs its
// function; Issue runs the function of such a claimed op, which issues its call; Complete applies
// an op's completion (a sync op finishing, an async op's signalled handle taking effect). Every
// execution the rules allow is a sequence of these.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "runtime/dag/program.hpp"
#include "runtime/engine/rules/handles.hpp"

namespace ordo::engine {

struct Start {
  dag::PoolId pool = 0;
  OpHandle op;
  std::optional<std::uint32_t> thread;  // none: the lowest free thread; traces always name it
  friend bool operator==(const Start&, const Start&) = default;
};

struct Complete {
  OpHandle op;
  friend bool operator==(const Complete&, const Complete&) = default;
};

struct Issue {
  OpHandle op;
  friend bool operator==(const Issue&, const Issue&) = default;
};

using Decision = std::variant<Start, Issue, Complete>;

}  // namespace ordo::engine
