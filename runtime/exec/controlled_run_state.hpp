// The per-rank state of a ControlledRun, shared by its implementation files only.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/comm/rules/buffer_touch.hpp"
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
  // What its parties touch now, started and not ended (docs/semantics.md, B2): the buffer rule's
  // account of the transitions taken, as the checker's op phases give it.
  comm::OngoingTouches touches;
  bool may_race = false;  // comm::may_race of its program: otherwise nothing needs the account
};

}  // namespace ordo::exec
