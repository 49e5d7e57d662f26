// A pool's queue of ready ops. A FIFO pool pops in ready order; a priority pool pops the highest
// priority first and breaks ties by ready order. Ready order is a sequence number the rules assign
// when an op joins the queue, so both kinds are total orders and every pop is deterministic.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::engine {

struct ReadyEntry {
  std::int32_t priority = 0;
  std::uint64_t ready_seq = 0;
  std::uint32_t slot = 0;
};

class RunQueue {
 public:
  explicit RunQueue(dag::PoolKind kind) : kind_(kind) {}
  void push(ReadyEntry entry);
  bool empty() const { return head_ == fifo_.size() && heap_.empty(); }
  std::size_t size() const { return fifo_.size() - head_ + heap_.size(); }
  // The slot the next pop() removes.
  std::uint32_t front() const;
  void pop();
  // Removes every entry; returns their slots in no particular order.
  std::vector<std::uint32_t> take_all();
  // Calls visit(slot) for every entry in the order pop() would remove them: the queue's state
  // without its history (ready sequence numbers), which the checker's state encoding needs.
  template <typename Visit>
  void for_each_in_pop_order(Visit&& visit) const;

 private:
  dag::PoolKind kind_;
  // FIFO entries from head_ on. A vector, not a deque: an empty one costs no allocation, and the
  // checker copies every run queue of a rank with each state it writes.
  std::vector<ReadyEntry> fifo_;
  std::size_t head_ = 0;
  std::vector<ReadyEntry> heap_;  // max-heap on (priority, earlier ready_seq)
};

template <typename Visit>
void RunQueue::for_each_in_pop_order(Visit&& visit) const {
  for (std::size_t i = head_; i < fifo_.size(); ++i) visit(fifo_[i].slot);
  if (heap_.empty()) return;
  std::vector<ReadyEntry> sorted = heap_;
  std::sort(sorted.begin(), sorted.end(), [](const ReadyEntry& a, const ReadyEntry& b) {
    return a.priority != b.priority ? a.priority > b.priority : a.ready_seq < b.ready_seq;
  });
  for (const ReadyEntry& entry : sorted) visit(entry.slot);
}

}  // namespace ordo::engine
