// The per-rank state of a ControlledRun, shared by its implementation files only.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/exec/controlled_run.hpp"

namespace ordo::exec {

struct ControlledRun::RankRun {
  dag::Rank rank = 0;
  const dag::Program* program = nullptr;
  engine::ControlledScheduler* scheduler = nullptr;  // owned by the engine
  std::unique_ptr<engine::Engine> engine;
  std::unique_ptr<Executor> executor;
  std::size_t pc = 0;          // the main thread's next action
  bool in_collective = false;  // the action at pc is a collective in flight
  std::optional<std::string> failure;
  std::vector<std::optional<engine::OpHandle>> handles;  // by op id, once submitted
  std::unordered_map<std::uint64_t, dag::OpId> op_of;    // handle -> op id
};

}  // namespace ordo::exec
