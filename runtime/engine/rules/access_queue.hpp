// The per-var FIFO of accesses still waiting for their grant. All vars share one node table with
// a free list: a var with nothing queued costs two indices, and a deep queue on one var costs one
// node per waiting access, recycled as soon as the access is granted.
#pragma once

#include <cstdint>
#include <vector>

namespace ordo::engine {

enum class AccessMode : std::uint8_t { read, write };

struct Access {
  std::uint32_t slot = 0;  // op slot waiting for the grant
  AccessMode mode = AccessMode::read;
};

// Head and tail of one var's queue inside an AccessNodes table.
struct AccessQueue {
  static constexpr std::uint32_t none = UINT32_MAX;
  std::uint32_t head = none;
  std::uint32_t tail = none;
  bool empty() const { return head == none; }
};

class AccessNodes {
 public:
  void push_back(AccessQueue& queue, Access access);
  const Access& front(const AccessQueue& queue) const;
  void pop_front(AccessQueue& queue);
  // Drops every node of `queue`, calling visit(access) on each in queue order.
  template <typename Visit>
  void drain(AccessQueue& queue, Visit&& visit);
  // Calls visit(access) on each node of `queue` in queue order, changing nothing.
  template <typename Visit>
  void for_each(const AccessQueue& queue, Visit&& visit) const;
  std::uint32_t nodes_live() const { return nodes_live_; }

 private:
  struct Node {
    Access access;
    std::uint32_t next = AccessQueue::none;
  };
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> free_;
  std::uint32_t nodes_live_ = 0;
};

template <typename Visit>
void AccessNodes::drain(AccessQueue& queue, Visit&& visit) {
  while (!queue.empty()) {
    visit(front(queue));
    pop_front(queue);
  }
}

template <typename Visit>
void AccessNodes::for_each(const AccessQueue& queue, Visit&& visit) const {
  for (std::uint32_t index = queue.head; index != AccessQueue::none; index = nodes_[index].next) {
    visit(nodes_[index].access);
  }
}

}  // namespace ordo::engine
