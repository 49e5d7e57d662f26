// A copy-on-write box for the parts of a search state (a rank, a communicator). Copies of a state
// share each part until one of them writes it; a write to a shared part first copies it into a
// node taken from a small per-thread list of released nodes, by copy-assignment, so the copy
// reuses the buffers the released part already had. A depth-first search releases almost every
// child state right after encoding it (it was visited before), so most copies then cost no
// allocation at all, where a fresh copy of a rank's engine state costs dozens.
//
// The reference count is not atomic: a state and every copy of it stay on the thread that made
// them (the checker runs no threads of its own).
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace ordo::checker {

template <class T>
class CowBox {
 public:
  explicit CowBox(T value) : node_(new Node{std::move(value), 1}) {}
  CowBox(const CowBox& other) : node_(other.node_) { ++node_->refs; }
  CowBox(CowBox&& other) noexcept : node_(std::exchange(other.node_, nullptr)) {}
  CowBox& operator=(CowBox other) noexcept {
    std::swap(node_, other.node_);
    return *this;
  }
  ~CowBox() { release(node_); }

  const T& get() const { return node_->value; }
  // Whether the two boxes share one part: neither wrote it since one was copied from the other.
  bool shares(const CowBox& other) const { return node_ == other.node_; }
  // The part for writing: this box's own node, copied first if any other box shares it.
  T& write() {
    if (node_->refs > 1) {
      Node* copy = take();
      if (copy != nullptr) {
        copy->value = node_->value;
        copy->refs = 1;
      } else {
        copy = new Node{node_->value, 1};
      }
      --node_->refs;
      node_ = copy;
    }
    return node_->value;
  }

 private:
  struct Node {
    T value;
    std::uint32_t refs;
  };
  // Released nodes kept for reuse. Few suffice (a search releases a child's node before making
  // the next child), and the bound keeps what a large rank state holds from piling up.
  static constexpr std::size_t kept_max = 16;
  static std::vector<std::unique_ptr<Node>>& released() {
    thread_local std::vector<std::unique_ptr<Node>> nodes;
    return nodes;
  }
  static Node* take() {
    std::vector<std::unique_ptr<Node>>& nodes = released();
    if (nodes.empty()) return nullptr;
    Node* node = nodes.back().release();
    nodes.pop_back();
    return node;
  }
  static void release(Node* node) {
    if (node == nullptr || --node->refs > 0) return;
    std::vector<std::unique_ptr<Node>>& nodes = released();
    if (nodes.size() < kept_max) {
      nodes.emplace_back(node);
    } else {
      delete node;
    }
  }

  Node* node_;
};

}  // namespace ordo::checker
