#include "runtime/engine/rules/access_queue.hpp"

#include <cassert>

namespace ordo::engine {

void AccessNodes::push_back(AccessQueue& queue, Access access) {
  std::uint32_t index = 0;
  if (free_.empty()) {
    assert(nodes_.size() < AccessQueue::none && "access node table exhausted");
    index = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back(Node{access, AccessQueue::none});
  } else {
    index = free_.back();
    free_.pop_back();
    nodes_[index] = Node{access, AccessQueue::none};
  }
  if (queue.empty()) {
    queue.head = index;
  } else {
    assert(nodes_[queue.tail].next == AccessQueue::none);
    nodes_[queue.tail].next = index;
  }
  queue.tail = index;
  ++nodes_live_;
}

const Access& AccessNodes::front(const AccessQueue& queue) const {
  assert(!queue.empty());
  assert(queue.head < nodes_.size());
  return nodes_[queue.head].access;
}

void AccessNodes::pop_front(AccessQueue& queue) {
  assert(!queue.empty());
  assert(nodes_live_ > 0);
  const std::uint32_t index = queue.head;
  queue.head = nodes_[index].next;
  if (queue.head == AccessQueue::none) queue.tail = AccessQueue::none;
  free_.push_back(index);
  --nodes_live_;
}

}  // namespace ordo::engine
