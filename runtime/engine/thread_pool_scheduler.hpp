// The production scheduler: each pool gets its fixed number of worker threads, and worker i of a
// pool only ever occupies thread index i in the rules (a helping caller may take a free one). A
// worker sleeps on its pool's condition variable only when the pool's run queue is empty, and a
// ready op notifies only when a worker of its pool sleeps, so a busy pool runs op after op without
// a single notify. Waiting callers sleep
// on one condition variable; a completion evaluates the sleeping callers' conditions under the
// lock it already holds and notifies only when one of them now holds, so a caller blocked in
// wait_for_all is not woken by each of the thousands of completions before the last.
//
// A waiting caller first runs, on its own thread, the ready ops its wait needs (help_waits), then
// polls for progress for a bounded time (wait_spin_us), and only then sleeps: handing an op to a
// sleeping worker and being woken back costs two futex wake-ups, several microseconds each on a
// virtual machine, which is a large share of a 1 MiB allreduce (docs/engine.md). Inside a submit
// batch (submit_batch.hpp) the wake for an op the batching thread readied is deferred to that
// thread's next wait, which then usually runs the op itself and wakes nobody.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "runtime/dag/program.hpp"
#include "runtime/engine/scheduler.hpp"

namespace ordo::engine {

struct Claim;

struct ThreadPoolOptions {
  // How long shutdown waits for started ops to complete before abandoning async ops still in
  // flight (a running sync op is always waited for: its thread cannot be taken back).
  std::uint32_t shutdown_wait_ms_max = 60'000;
  // A caller blocked in wait_for_all or wait_to_read runs the ready ops its wait needs itself, on
  // a free thread index of their pool, instead of waking a worker and sleeping until it is done.
  bool help_waits = true;
  // How long a blocked caller polls for progress (pausing, yielding its core every poll round)
  // before it sleeps on the condition variable. 0: sleep at once. Bounded, so an idle engine
  // burns no CPU; see docs/engine.md for how the default was chosen.
  std::uint32_t wait_spin_us = 0;
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
  void wait(Lock& lock, const std::function<bool()>& done, const std::string& what,
            const WaitNeeds& needs) override;
  void begin_batch(Lock& lock) override;
  void end_batch(Lock& lock) override;
  void release_deferred(Lock& lock) override;
  void drain() override;

  // How many workers of `pool` sleep now; for tests that need a worker asleep before they act.
  std::uint32_t sleeping_workers(dag::PoolId pool) const;

 private:
  struct PoolWorkers {
    std::condition_variable wake;
    std::uint32_t sleepers = 0;
    // Thread indices of this pool held by waiting callers that run an op: a notified worker may
    // be the one whose index is taken, so notifications go to every sleeper while this is > 0.
    std::uint32_t helpers = 0;
    // Sleepers whose own index a blocking collective holds: they cannot take a ready op either.
    std::uint32_t parked = 0;
    // Wakes a submit batch deferred: ready ops no worker was told about (docs/engine.md).
    std::uint32_t deferred = 0;
  };
  struct Batching {
    std::thread::id thread;
    std::uint32_t depth = 0;
  };

  void work(dag::PoolId pool, std::uint32_t thread);
  // Runs a claimed op with the lock released and finishes it (or returns its thread) relocked.
  void run_claimed(Lock& lock, std::optional<Claim>& claim);
  // Runs, on the caller's thread, one ready op the wait needs, at most one per pool of
  // `helped_pools` (a bit per pool id below 64, updated); false when there is none.
  bool help(Lock& lock, const WaitNeeds& needs, std::uint64_t& helped_pools);
  // Releases the lock and polls progress_ until it moves or `end` passes; relocks.
  void spin(Lock& lock, std::chrono::steady_clock::time_point end);
  // Sleeps until `done` holds or the deadline passes, registered in waiting_.
  bool sleep_until(Lock& lock, const std::function<bool()>& done,
                   std::chrono::steady_clock::time_point deadline);
  void stop_and_join();
  bool batching_here() const;
  // Wakes, for every pool with deferred wakes and a queued op, as many sleepers as were deferred.
  void pay_deferred();

  ThreadPoolOptions options_;
  EngineCore* core_ = nullptr;
  // Under the core mutex.
  std::vector<std::unique_ptr<PoolWorkers>> pools_;
  std::condition_variable waiters_wake_;
  std::vector<const std::function<bool()>*> waiting_;  // the sleeping callers' conditions
  bool stop_ = false;
  std::vector<Batching> batching_;  // threads inside a submit batch; usually none or one
  bool any_deferred_ = false;  // some pool's `deferred` is not 0 (skips pay_deferred's loop)
  // Bumped under the core mutex at every on_progress; spinning callers read it without the lock.
  std::atomic<std::uint64_t> progress_{0};
  // Touched only by attach and drain, on the engine owner's thread.
  std::vector<std::thread> threads_;
};

}  // namespace ordo::engine
