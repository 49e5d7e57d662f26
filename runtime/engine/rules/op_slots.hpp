// The table of live ops. Slots are recycled through a free list so an engine that runs millions
// of ops holds memory only for the ops pending at once; retiring a slot bumps its generation so
// handles to the retired op become detectably stale.
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "runtime/engine/rules/handles.hpp"
#include "runtime/engine/rules/op_desc.hpp"

namespace ordo::engine {

enum class OpState : std::uint8_t {
  free,     // no op; the slot is on the free list
  waiting,  // some var has not granted its access yet
  ready,    // every access granted; in its pool's run queue
  running,  // started: a sync op until it finishes, an async op until it completes and returns
};

struct OpSlot {
  std::uint32_t generation = 0;
  OpState state = OpState::free;
  bool async = false;
  bool holds_thread = false;  // occupies `thread` of its pool
  bool completed = false;     // its vars are released (async: the handle fired)
  // An async op of kind collective: it keeps its thread after its function returns, until it
  // completes, as a thread blocked in the collective would.
  bool blocking = false;
  bool returned = false;      // a blocking op's function has returned
  std::uint32_t pending = 0;  // accesses not granted yet
  std::uint32_t thread = 0;
  std::uint64_t submit_seq = 0;
  // Set from submit to retirement. Not an owner: the description outlives the op (OpSlots owns
  // it when the submitter did not keep it), so a slot, and a copy of a whole engine state, is
  // plain bytes with no reference count to touch.
  const OpDesc* desc = nullptr;
};

static_assert(std::is_trivially_copyable_v<OpSlot>);

class OpSlots {
 public:
  // A slot in state free with a generation no live handle carries.
  std::uint32_t allocate();
  void retire(std::uint32_t slot);
  // Keeps `desc` alive until the slot retires and points the slot at it. Only submitters that do
  // not own their descriptions use it (the runtime); the checker's model owns them, so its states
  // hold no owners and copy as bytes.
  void own(std::uint32_t slot, std::shared_ptr<const OpDesc> desc);
  OpSlot& at(std::uint32_t slot) {
    assert(slot < slots_.size());
    return slots_[slot];
  }
  const OpSlot& at(std::uint32_t slot) const {
    assert(slot < slots_.size());
    return slots_[slot];
  }
  // nullptr when the handle is out of range, retired or recycled.
  const OpSlot* find(OpHandle op) const {
    if (op.slot >= slots_.size()) return nullptr;
    const OpSlot& slot = slots_[op.slot];
    if (slot.state == OpState::free || slot.generation != op.generation) return nullptr;
    return &slot;
  }
  OpHandle handle(std::uint32_t slot) const { return OpHandle{slot, at(slot).generation}; }
  std::uint32_t live() const { return live_; }
  std::uint32_t capacity() const { return static_cast<std::uint32_t>(slots_.size()); }

 private:
  std::vector<OpSlot> slots_;
  std::vector<std::uint32_t> free_;
  std::vector<std::shared_ptr<const OpDesc>> owned_;  // by slot; empty unless own() was called
  std::uint32_t live_ = 0;
};

}  // namespace ordo::engine
