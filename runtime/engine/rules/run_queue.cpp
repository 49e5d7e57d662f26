#include "runtime/engine/rules/run_queue.hpp"

#include <algorithm>
#include <cassert>

namespace ordo::engine {
namespace {

// "a pops after b": lower priority, or equal priority and later ready.
bool pops_after(const ReadyEntry& a, const ReadyEntry& b) {
  if (a.priority != b.priority) return a.priority < b.priority;
  return a.ready_seq > b.ready_seq;
}

}  // namespace

void RunQueue::push(ReadyEntry entry) {
  if (kind_ == dag::PoolKind::fifo) {
    assert(fifo_.empty() || fifo_.back().ready_seq < entry.ready_seq);
    fifo_.push_back(entry);
    return;
  }
  heap_.push_back(entry);
  std::push_heap(heap_.begin(), heap_.end(), pops_after);
}

std::uint32_t RunQueue::front() const {
  assert(!empty());
  return kind_ == dag::PoolKind::fifo ? fifo_.front().slot : heap_.front().slot;
}

void RunQueue::pop() {
  assert(!empty());
  if (kind_ == dag::PoolKind::fifo) {
    fifo_.pop_front();
    return;
  }
  std::pop_heap(heap_.begin(), heap_.end(), pops_after);
  heap_.pop_back();
}

std::vector<std::uint32_t> RunQueue::take_all() {
  std::vector<std::uint32_t> slots;
  slots.reserve(size());
  for (const ReadyEntry& entry : fifo_) slots.push_back(entry.slot);
  for (const ReadyEntry& entry : heap_) slots.push_back(entry.slot);
  fifo_.clear();
  heap_.clear();
  assert(empty());
  return slots;
}

}  // namespace ordo::engine
