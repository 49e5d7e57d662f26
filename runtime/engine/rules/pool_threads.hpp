// Which of a pool's fixed threads are occupied, and by which op slot. Thread indices are part of
// the semantics' state so a controlled schedule can name them and a worker thread of the
// production pool can claim exactly its own index.
#pragma once

#include <cassert>
#include <cstdint>
#include <optional>
#include <vector>

namespace ordo::engine {

class PoolThreads {
 public:
  static constexpr std::uint32_t idle = UINT32_MAX;

  explicit PoolThreads(std::uint32_t threads) : slots_(threads, idle) { assert(threads > 0); }

  std::uint32_t threads() const { return static_cast<std::uint32_t>(slots_.size()); }
  std::uint32_t threads_busy() const { return threads_busy_; }
  bool is_free(std::uint32_t thread) const { return slots_.at(thread) == idle; }
  // The op slot a busy thread runs, or idle.
  std::uint32_t running(std::uint32_t thread) const { return slots_.at(thread); }

  std::optional<std::uint32_t> lowest_free() const {
    for (std::uint32_t thread = 0; thread < threads(); ++thread) {
      if (slots_[thread] == idle) return thread;
    }
    return std::nullopt;
  }

  void occupy(std::uint32_t thread, std::uint32_t slot) {
    assert(is_free(thread) && slot != idle);
    slots_[thread] = slot;
    ++threads_busy_;
    assert(threads_busy_ <= threads());
  }

  void release(std::uint32_t thread, [[maybe_unused]] std::uint32_t slot) {
    assert(running(thread) == slot && threads_busy_ > 0);
    slots_[thread] = idle;
    --threads_busy_;
  }

 private:
  std::vector<std::uint32_t> slots_;
  std::uint32_t threads_busy_ = 0;
};

}  // namespace ordo::engine
