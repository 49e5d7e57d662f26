// Helpers for tests on the production thread pool.
#pragma once

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "runtime/engine/engine.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"

namespace ordo::engine::testing {

inline std::unique_ptr<Engine> thread_pool_engine(std::vector<dag::Pool> pools, Limits limits = {},
                                                  ThreadPoolOptions options = {}) {
  return std::make_unique<Engine>(EngineConfig{std::move(pools), limits, false, "step"},
                                  std::make_unique<ThreadPoolScheduler>(options));
}

// Runs a callback when destroyed: captured by an op's function, it tells a test the function was
// destroyed, which is how a discarded op can be observed without timing.
class OnDestroy {
 public:
  explicit OnDestroy(std::function<void()> callback) : callback_(std::move(callback)) {}
  OnDestroy(const OnDestroy&) = delete;
  OnDestroy& operator=(const OnDestroy&) = delete;
  ~OnDestroy() { callback_(); }

 private:
  std::function<void()> callback_;
};

}  // namespace ordo::engine::testing
