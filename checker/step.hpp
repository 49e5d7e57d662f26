// One step of a multi-rank execution, in the vocabulary of the runtime's controlled run
// (exec::Step): a rank's main thread takes its next action, or a rank's engine starts or completes
// an op named by its program op id. A checker witness is a list of these from the initial state,
// so it replays step by step on exec::ControlledRun without translation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "runtime/dag/program.hpp"

namespace ordo::checker {

struct Step {
  enum class Kind : std::uint8_t { main, start, complete };
  Kind kind = Kind::main;
  dag::Rank rank = 0;
  dag::OpId op = 0;                     // start and complete
  std::optional<std::uint32_t> thread;  // start: the pool thread it runs on
  friend bool operator==(const Step&, const Step&) = default;
};

}  // namespace ordo::checker
