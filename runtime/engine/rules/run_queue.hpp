// A pool's queue of ready ops. A FIFO pool pops in ready order; a priority pool pops the highest
// priority first and breaks ties by ready order. Ready order is a sequence number the rules assign
// when an op joins the queue, so both kinds are total orders and every pop is deterministic.
#pragma once

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

 private:
  dag::PoolKind kind_;
  // FIFO entries from head_ on. A vector, not a deque: an empty one costs no allocation, and the
  // checker copies every run queue of a rank with each state it writes.
  std::vector<ReadyEntry> fifo_;
  std::size_t head_ = 0;
  std::vector<ReadyEntry> heap_;  // max-heap on (priority, earlier ready_seq)
};

}  // namespace ordo::engine
