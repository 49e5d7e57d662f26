// The rarer transitions: surfacing failures at waits and discarding unstarted ops at shutdown.
// They scan whole tables, which is fine off the hot path and keeps the common path free of the
// bookkeeping an incremental version would need.
#include <cassert>

#include "runtime/engine/rules/engine_state.hpp"

namespace ordo::engine {

std::exception_ptr EngineState::surface_var(VarHandle var) {
  const Poison poison = var_at(var).poison;
  if (!poison.active()) return nullptr;
  std::exception_ptr error = failures_.error(poison.failure_id);
  clear_failure(poison.failure_id);
  assert(!vars_[var.id].poison.active());
  return error;
}

std::exception_ptr EngineState::surface_all() {
  if (!failures_.any()) return nullptr;
  // The earliest failure wins: the list's head, or an older one past the list bound that only a
  // var still remembers.
  Poison earliest = failures_.first() != nullptr ? *failures_.first() : Poison{};
  for (VarState& state : vars_) {
    const Poison& poison = state.poison;
    if (poison.active() && (!earliest.active() || poison.failure_id < earliest.failure_id)) {
      earliest = poison;
    }
    state.poison = Poison{};
  }
  std::exception_ptr error = earliest.active() ? failures_.error(earliest.failure_id) : nullptr;
  failures_.clear();
  assert(!failures_.any());
  return error;
}

void EngineState::clear_failure(std::uint64_t failure_id) {
  assert(failure_id != 0);
  failures_.forget(failure_id);
  for (VarState& state : vars_) {
    if (state.poison.failure_id == failure_id) {
      state.poison = Poison{};
      failures_.dropped(failure_id);
    }
  }
}

std::vector<OpHandle> EngineState::discard_unstarted() {
  std::vector<OpHandle> discarded;
  for (std::uint32_t index = 0; index < slots_.capacity(); ++index) {
    const OpSlot& op = slots_.at(index);
    if (op.state == OpState::waiting || op.state == OpState::ready) {
      discarded.push_back(slots_.handle(index));
    }
  }
  for (Pool& pool : pools_) pool.queue.take_all();
  for (VarState& state : vars_) nodes_.drain(state.waiting, [](const Access&) {});
  for (const OpHandle handle : discarded) slots_.retire(handle.slot);
  assert(ops_incomplete_ >= discarded.size());
  ops_incomplete_ -= discarded.size();
  ops_discarded_ += discarded.size();
  regrant_started();
  ready_batch_.clear();
  assert(nodes_.nodes_live() == 0);
  return discarded;
}

// After a discard, exactly the started, not yet completed ops hold grants: rebuild the counts
// from them instead of unpicking the partial grants of every discarded op.
void EngineState::regrant_started() {
  for (VarState& state : vars_) {
    state.reads_active = 0;
    state.write_active = false;
  }
  for (std::uint32_t index = 0; index < slots_.capacity(); ++index) {
    const OpSlot& op = slots_.at(index);
    if (op.state != OpState::running || op.completed) continue;
    for (const VarHandle var : op.desc->reads) var_grant(vars_[var.id], AccessMode::read);
    for (const VarHandle var : op.desc->writes) var_grant(vars_[var.id], AccessMode::write);
  }
}

}  // namespace ordo::engine
