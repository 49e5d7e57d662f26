#include "runtime/engine/rules/op_slots.hpp"

#include <cassert>

namespace ordo::engine {

std::string to_string(OpHandle op) {
  return "slot " + std::to_string(op.slot) + " gen " + std::to_string(op.generation);
}

std::uint32_t OpSlots::allocate() {
  std::uint32_t slot = 0;
  if (free_.empty()) {
    assert(slots_.size() < UINT32_MAX);
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  } else {
    slot = free_.back();
    free_.pop_back();
  }
  assert(slots_[slot].state == OpState::free);
  ++live_;
  return slot;
}

void OpSlots::retire(std::uint32_t slot) {
  OpSlot& op = at(slot);
  assert(op.state != OpState::free && live_ > 0);
  op.state = OpState::free;
  op.holds_thread = false;
  op.completed = false;
  op.desc.reset();
  ++op.generation;  // wrapping after 2^32 reuses of one slot is accepted: stale checks are a guard
  free_.push_back(slot);
  --live_;
}

OpSlot& OpSlots::at(std::uint32_t slot) {
  assert(slot < slots_.size());
  return slots_[slot];
}

const OpSlot& OpSlots::at(std::uint32_t slot) const {
  assert(slot < slots_.size());
  return slots_[slot];
}

const OpSlot* OpSlots::find(OpHandle op) const {
  if (op.slot >= slots_.size()) return nullptr;
  const OpSlot& slot = slots_[op.slot];
  if (slot.state == OpState::free || slot.generation != op.generation) return nullptr;
  return &slot;
}

}  // namespace ordo::engine
