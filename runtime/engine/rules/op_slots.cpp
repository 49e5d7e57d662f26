#include "runtime/engine/rules/op_slots.hpp"

#include <cassert>
#include <utility>

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
  op.desc = nullptr;
  if (slot < owned_.size()) owned_[slot].reset();
  ++op.generation;  // wrapping after 2^32 reuses of one slot is accepted: stale checks are a guard
  free_.push_back(slot);
  --live_;
}

void OpSlots::own(std::uint32_t slot, std::shared_ptr<const OpDesc> desc) {
  assert(desc != nullptr);
  if (owned_.size() <= slot) owned_.resize(slots_.size());
  at(slot).desc = desc.get();
  owned_[slot] = std::move(desc);
}

}  // namespace ordo::engine
