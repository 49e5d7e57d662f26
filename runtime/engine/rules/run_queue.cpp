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
    assert(head_ == fifo_.size() || fifo_.back().ready_seq < entry.ready_seq);
    fifo_.push_back(entry);
    return;
  }
  heap_.push_back(entry);
  std::push_heap(heap_.begin(), heap_.end(), pops_after);
}

std::uint32_t RunQueue::front() const {
  assert(!empty());
  return kind_ == dag::PoolKind::fifo ? fifo_[head_].slot : heap_.front().slot;
}

void RunQueue::pop() {
  assert(!empty());
  if (kind_ == dag::PoolKind::fifo) {
    ++head_;
    if (head_ == fifo_.size()) {
      fifo_.clear();
      head_ = 0;
    } else if (head_ >= 32 && 2 * head_ >= fifo_.size()) {
      // Popped entries are dropped once they are half the vector: pops stay amortised O(1).
      fifo_.erase(fifo_.begin(), fifo_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    return;
  }
  std::pop_heap(heap_.begin(), heap_.end(), pops_after);
  heap_.pop_back();
}

std::vector<std::uint32_t> RunQueue::take_all() {
  std::vector<std::uint32_t> slots;
  slots.reserve(size());
  for (std::size_t i = head_; i < fifo_.size(); ++i) slots.push_back(fifo_[i].slot);
  for (const ReadyEntry& entry : heap_) slots.push_back(entry.slot);
  fifo_.clear();
  head_ = 0;
  heap_.clear();
  assert(empty());
  return slots;
}

}  // namespace ordo::engine
