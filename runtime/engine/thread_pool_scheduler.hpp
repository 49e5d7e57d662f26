// The production scheduler: each pool gets its fixed number of worker threads, and worker i of a
// pool always occupies thread index i in the rules. A worker sleeps on its pool's condition
// variable only when the pool's run queue is empty, and a ready op notifies only when a worker of
// its pool sleeps, so a busy pool runs op after op without a single notify. Waiting callers sleep
// on one condition variable; a completion evaluates the sleeping callers' conditions under the
// lock it already holds and notifies only when one of them now holds, so a caller blocked in
// wait_for_all is not woken by each of the thousands of completions before the last.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "runtime/dag/program.hpp"
#include "runtime/engine/scheduler.hpp"

namespace ordo::engine {

struct ThreadPoolOptions {
  // How long shutdown waits for started ops to complete before abandoning async ops still in
  // flight (a running sync op is always waited for: its thread cannot be taken back).
  std::uint32_t shutdown_wait_ms_max = 60'000;
};

class ThreadPoolScheduler final : public Scheduler {
 public:
  explicit ThreadPoolScheduler(ThreadPoolOptions options = {});
  ~ThreadPoolScheduler() override;

  void attach(EngineCore& core) override;
  void on_ready(std::span<const OpHandle> ready) override;
  void on_progress() override;
  void on_thread_freed(dag::PoolId pool) override;
  void on_async_signal(Lock& lock, OpHandle op, std::exception_ptr error) override;
  void wait(Lock& lock, const std::function<bool()>& done, const std::string& what) override;
  void drain() override;

 private:
  struct PoolWorkers {
    std::condition_variable wake;
    std::uint32_t sleepers = 0;
  };

  void work(dag::PoolId pool, std::uint32_t thread);
  // Sleeps until `done` holds or the deadline passes, registered in waiting_.
  bool sleep_until(Lock& lock, const std::function<bool()>& done,
                   std::chrono::steady_clock::time_point deadline);
  void stop_and_join();

  ThreadPoolOptions options_;
  EngineCore* core_ = nullptr;
  // Under the core mutex.
  std::vector<std::unique_ptr<PoolWorkers>> pools_;
  std::condition_variable waiters_wake_;
  std::vector<const std::function<bool()>*> waiting_;  // the sleeping callers' conditions
  bool stop_ = false;
  // Touched only by attach and drain, on the engine owner's thread.
  std::vector<std::thread> threads_;
};

}  // namespace ordo::engine
