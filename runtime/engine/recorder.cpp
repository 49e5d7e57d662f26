#include "runtime/engine/recorder.hpp"

#include <cassert>

#include "runtime/dag/limits.hpp"
#include "runtime/engine/rules/errors.hpp"

namespace ordo::engine {
namespace {

std::vector<dag::VarId> var_ids(const std::vector<VarHandle>& vars) {
  std::vector<dag::VarId> ids;
  ids.reserve(vars.size());
  for (const VarHandle var : vars) ids.push_back(var.id);
  return ids;
}

}  // namespace

void Recorder::check_room_for_submit(const std::string& op_name) const {
  if (ops_.size() >= dag::limits::ops_max) {
    throw CapacityError("recording op '" + op_name + "' would exceed the program bound of " +
                        std::to_string(dag::limits::ops_max) + " ops");
  }
  check_room_for_action("submit");
}

void Recorder::check_room_for_action(const char* action) const {
  if (main_.size() >= dag::limits::actions_max) {
    throw CapacityError(std::string("recording ") + action + " would exceed the program bound of " +
                        std::to_string(dag::limits::actions_max) + " main actions");
  }
}

void Recorder::record_submit(const OpDesc& desc) {
  assert(ops_.size() < dag::limits::ops_max);
  const auto op = static_cast<dag::OpId>(ops_.size());
  ops_.push_back(dag::Op{desc.name, var_ids(desc.reads), var_ids(desc.writes), desc.pool,
                         desc.priority, desc.kind, desc.cost_us, desc.collective});
  main_.emplace_back(dag::SubmitAction{op});
  assert(ops_.size() <= main_.size());
}

void Recorder::record_wait_to_read(VarHandle var) {
  assert(main_.size() < dag::limits::actions_max);
  main_.emplace_back(dag::WaitToReadAction{var.id});
}

void Recorder::record_wait_for_all() {
  assert(main_.size() < dag::limits::actions_max);
  main_.emplace_back(dag::WaitForAllAction{});
}

void Recorder::record_main_collective(const dag::Collective& collective,
                                      std::optional<VarHandle> buffer) {
  assert(main_.size() < dag::limits::actions_max);
  std::optional<dag::VarId> buffer_id;
  if (buffer) buffer_id = buffer->id;
  main_.emplace_back(dag::CollectiveAction{collective, buffer_id});
}

dag::Program Recorder::program(std::string name, std::vector<dag::Var> vars,
                               std::vector<dag::Pool> pools) const {
  dag::Program program{std::move(name),  std::nullopt, std::move(vars),
                       std::move(pools), ops_,         main_};
  assert(!program.ranks.has_value());
  assert(program.ops.size() == ops_.size());
  return program;
}

}  // namespace ordo::engine
