#include "runtime/engine/thread_pool_scheduler.hpp"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "runtime/engine/core.hpp"

namespace ordo::engine {
namespace {

// Tells the core this is a spin-wait loop: on x86 it stops the pipeline from speculating ahead
// and yields execution resources to a sibling hyperthread.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

}  // namespace

ThreadPoolScheduler::ThreadPoolScheduler(ThreadPoolOptions options) : options_(options) {}

ThreadPoolScheduler::~ThreadPoolScheduler() {
  // The engine drains its scheduler before destroying it; a scheduler never attached has none.
  assert(threads_.empty());
}

void ThreadPoolScheduler::attach(EngineCore& core) {
  assert(core_ == nullptr && threads_.empty());
  core_ = &core;
  const EngineState& rules = core.rules();  // no worker exists yet, so no lock is needed
  for (dag::PoolId pool = 0; pool < rules.pools(); ++pool) {
    pools_.push_back(std::make_unique<PoolWorkers>());
  }
  try {
    for (dag::PoolId pool = 0; pool < rules.pools(); ++pool) {
      for (std::uint32_t thread = 0; thread < rules.pool(pool).threads; ++thread) {
        threads_.emplace_back([this, pool, thread] { work(pool, thread); });
      }
    }
  } catch (...) {
    stop_and_join();
    throw;
  }
  assert(pools_.size() == rules.pools());
}

void ThreadPoolScheduler::work(dag::PoolId pool, std::uint32_t thread) {
  PoolWorkers& workers = *pools_[pool];
  EngineCore::Lock lock(core_->mutex());
  assert(thread < core_->rules().pool(pool).threads);
  while (!stop_) {
    // Worker `thread` runs one op at a time, so its thread index is free whenever it claims,
    // unless a waiting caller holds it (help) or a blocking async op still does.
    std::optional<Claim> claim = core_->claim(pool, thread);
    assert(!claim || claim->started.thread == thread);
    if (!claim) {
      // Asleep on an index a blocking collective holds, this worker cannot take a ready op, so
      // while it sleeps a notification for one must reach every sleeper (tests/engine/
      // thread_pool_parked_test.cpp). Its index comes back only with on_thread_freed.
      const bool parked = !core_->rules().threads(pool).is_free(thread);
      ++workers.sleepers;
      if (parked) ++workers.parked;
      workers.wake.wait(lock);
      --workers.sleepers;
      if (parked) --workers.parked;
      continue;
    }
    // Finishing and claiming the next op happen in one hold of the lock.
    run_claimed(lock, claim);
  }
}

void ThreadPoolScheduler::run_claimed(Lock& lock, std::optional<Claim>& claim) {
  assert(lock.owns_lock() && claim);
  const Started started = claim->started;
  const bool async = static_cast<bool>(claim->task.async);
  lock.unlock();
  std::exception_ptr error;
  if (!started.skipped) error = core_->execute(*claim);
  claim.reset();  // the function dies outside the lock
  lock.lock();
  if (started.skipped) return;  // claim already completed it
  if (async) {
    core_->thread_returned(started.op);
  } else {
    core_->complete(started.op, error);
  }
}

bool ThreadPoolScheduler::help(Lock& lock, const WaitNeeds& needs, std::uint64_t& helped_pools) {
  if (!options_.help_waits || needs.kind == WaitNeeds::Kind::none || core_->stopping()) {
    return false;
  }
  const EngineState& rules = core_->rules();
  const dag::PoolId pools = std::min<dag::PoolId>(rules.pools(), 64);
  for (dag::PoolId pool = 0; pool < pools; ++pool) {
    // Only a lone ready op of a pool whose workers sleep, once per pool and wait: that is a
    // hand-off that costs two wake-ups. With more queued, a worker awake, or a chain of ops that
    // the woken worker can take over, the workers run them back to back, and a caller competing
    // with them for the lock op after op costs more than it saves.
    const std::uint64_t bit = std::uint64_t{1} << pool;
    PoolWorkers& workers = *pools_[pool];
    if ((helped_pools & bit) != 0 || workers.sleepers == 0 || rules.ready_count(pool) != 1) {
      continue;
    }
    const std::optional<OpHandle> next = rules.peek_next(pool);
    assert(next);
    if (needs.kind == WaitNeeds::Kind::writes_of_var) {
      const std::vector<VarHandle>& writes = rules.slot(next->slot).desc->writes;
      if (std::find(writes.begin(), writes.end(), needs.var) == writes.end()) continue;
    }
    const std::optional<std::uint32_t> thread = rules.lowest_free_thread(pool);
    if (!thread) continue;
    std::optional<Claim> claim = core_->claim(pool, *thread);
    assert(claim);
    // The op's function may hold this thread without end (a blocking collective waits in MPI for
    // the other ranks, which may first need an op this thread's batch deferred): what the batch
    // deferred goes to the workers now, before the function runs. The claimed op has left its
    // queue, so a caller that helps its one ready op still wakes nobody.
    if (any_deferred_) pay_deferred();
    helped_pools |= bit;
    ++workers.helpers;
    run_claimed(lock, claim);
    --workers.helpers;
    // The index is back (unless a blocking op keeps it until completion, which notifies then).
    // A worker notified for a queued op while this caller held its index went back to sleep;
    // only the worker of a free index can take it, so wake them all.
    if (workers.sleepers > 0 && rules.peek_next(pool)) workers.wake.notify_all();
    return true;
  }
  return false;
}

void ThreadPoolScheduler::on_ready(std::span<const OpHandle> ready) {
  const bool defer = !batching_.empty() && batching_here();
  for (const OpHandle op : ready) {
    PoolWorkers& workers = *pools_[core_->rules().slot(op.slot).desc->pool];
    if (workers.sleepers == 0) continue;
    if (defer) {
      ++workers.deferred;
      any_deferred_ = true;
      continue;
    }
    if (workers.helpers > 0 || workers.parked > 0) {
      workers.wake.notify_all();
    } else {
      workers.wake.notify_one();
    }
  }
}

// Only the worker with the freed index can use it, and notify_one might pick another sleeper.
void ThreadPoolScheduler::on_thread_freed(dag::PoolId pool) {
  PoolWorkers& workers = *pools_[pool];
  if (workers.sleepers > 0) workers.wake.notify_all();
}

void ThreadPoolScheduler::on_progress() {
  // Under the lock, so a plain increment; spinning callers only need to see that it moved.
  progress_.store(progress_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  for (const std::function<bool()>* done : waiting_) {
    if ((*done)()) {
      waiters_wake_.notify_all();
      return;
    }
  }
}

void ThreadPoolScheduler::on_async_signal([[maybe_unused]] Lock& lock, OpHandle op,
                                          std::exception_ptr error) {
  assert(lock.owns_lock());
  core_->complete(op, std::move(error));
}

// `what` only matters to a scheduler that refuses to wait.
void ThreadPoolScheduler::wait(Lock& lock, const std::function<bool()>& done,
                               const std::string& /*what*/, const WaitNeeds& needs) {
  assert(!done());
  const bool spins = options_.wait_spin_us > 0;
  const auto spin_end =
      spins ? std::chrono::steady_clock::now() + std::chrono::microseconds(options_.wait_spin_us)
            : std::chrono::steady_clock::time_point::min();
  std::uint64_t helped_pools = 0;
  while (!done()) {
    if (help(lock, needs, helped_pools)) continue;
    // What this caller cannot run itself goes to the workers before it polls or sleeps.
    if (any_deferred_) pay_deferred();
    if (spins && std::chrono::steady_clock::now() < spin_end) {
      spin(lock, spin_end);
      continue;
    }
    sleep_until(lock, done, std::chrono::steady_clock::time_point::max());
  }
  // Ops that helping readied and the wait did not need: the caller leaves the engine now.
  if (any_deferred_) pay_deferred();
  assert(done());
}

bool ThreadPoolScheduler::batching_here() const {
  const std::thread::id self = std::this_thread::get_id();
  return std::any_of(batching_.begin(), batching_.end(),
                     [&](const Batching& b) { return b.thread == self; });
}

void ThreadPoolScheduler::begin_batch([[maybe_unused]] Lock& lock) {
  assert(lock.owns_lock());
  const std::thread::id self = std::this_thread::get_id();
  for (Batching& b : batching_) {
    if (b.thread == self) {
      ++b.depth;
      return;
    }
  }
  batching_.push_back(Batching{self, 1});
}

void ThreadPoolScheduler::end_batch([[maybe_unused]] Lock& lock) {
  assert(lock.owns_lock());
  const std::thread::id self = std::this_thread::get_id();
  const auto it = std::find_if(batching_.begin(), batching_.end(),
                               [&](const Batching& b) { return b.thread == self; });
  assert(it != batching_.end());
  if (it == batching_.end() || --it->depth > 0) return;
  batching_.erase(it);
  if (any_deferred_) pay_deferred();
}

void ThreadPoolScheduler::release_deferred([[maybe_unused]] Lock& lock) {
  assert(lock.owns_lock());
  if (any_deferred_) pay_deferred();
}

void ThreadPoolScheduler::pay_deferred() {
  const EngineState& rules = core_->rules();
  for (dag::PoolId pool = 0; pool < rules.pools(); ++pool) {
    PoolWorkers& workers = *pools_[pool];
    const std::uint32_t deferred = std::exchange(workers.deferred, 0);
    if (deferred == 0 || workers.sleepers == 0 || !rules.peek_next(pool)) continue;
    // While a caller or a collective holds one of the pool's indices, a notified worker may be
    // the one that cannot run; as in on_ready, everyone is woken then.
    if (workers.helpers > 0 || workers.parked > 0 || deferred >= workers.sleepers) {
      workers.wake.notify_all();
    } else {
      for (std::uint32_t i = 0; i < deferred; ++i) workers.wake.notify_one();
    }
  }
  any_deferred_ = false;
}

std::uint32_t ThreadPoolScheduler::sleeping_workers(dag::PoolId pool) const {
  const std::lock_guard<std::mutex> lock(core_->mutex());
  return pools_.at(pool)->sleepers;
}

void ThreadPoolScheduler::spin(Lock& lock, std::chrono::steady_clock::time_point end) {
  const std::uint64_t seen = progress_.load(std::memory_order_relaxed);
  lock.unlock();
  // Polls in rounds of pauses; between rounds the core is offered to other runnable threads,
  // which on an oversubscribed machine may be the very thread this caller waits for.
  constexpr int polls_per_round = 64;
  bool moved = false;
  while (!moved && std::chrono::steady_clock::now() < end) {
    for (int i = 0; i < polls_per_round && !moved; ++i) {
      cpu_relax();
      moved = progress_.load(std::memory_order_acquire) != seen;
    }
    if (!moved) std::this_thread::yield();
  }
  lock.lock();
}

bool ThreadPoolScheduler::sleep_until(Lock& lock, const std::function<bool()>& done,
                                      std::chrono::steady_clock::time_point deadline) {
  assert(lock.owns_lock());
  waiting_.push_back(&done);
  bool held = true;
  if (deadline == std::chrono::steady_clock::time_point::max()) {
    waiters_wake_.wait(lock, done);  // wait_until(max) would overflow the clock arithmetic
  } else {
    held = waiters_wake_.wait_until(lock, deadline, done);
  }
  const auto it = std::find(waiting_.begin(), waiting_.end(), &done);
  assert(it != waiting_.end());
  waiting_.erase(it);
  return held;
}

void ThreadPoolScheduler::drain() {
  assert(core_ != nullptr);
  {
    EngineCore::Lock lock(core_->mutex());
    const std::function<bool()> settled = [this] { return core_->rules().ops_incomplete() == 0; };
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.shutdown_wait_ms_max);
    if (!settled()) sleep_until(lock, settled, deadline);
  }
  stop_and_join();
}

void ThreadPoolScheduler::stop_and_join() {
  {
    const std::lock_guard<std::mutex> lock(core_->mutex());
    stop_ = true;
    for (const std::unique_ptr<PoolWorkers>& workers : pools_) workers->wake.notify_all();
  }
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
  assert(threads_.empty());
}

}  // namespace ordo::engine
