#include "runtime/engine/thread_pool_scheduler.hpp"

#include <algorithm>
#include <cassert>
#include <chrono>

#include "runtime/engine/core.hpp"

namespace ordo::engine {

ThreadPoolScheduler::ThreadPoolScheduler(ThreadPoolOptions options) : options_(options) {}

ThreadPoolScheduler::~ThreadPoolScheduler() {
  // The engine drains its scheduler before destroying it; a scheduler never attached has none.
  assert(threads_.empty());
}

void ThreadPoolScheduler::attach(EngineCore& core) {
  assert(core_ == nullptr && threads_.empty());
  core_ = &core;
  const Rules& rules = core.rules();  // no worker exists yet, so no lock is needed
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
    // Worker `thread` runs one op at a time, so its thread index is free whenever it claims.
    std::optional<Claim> claim = core_->claim(pool, thread);
    assert(!claim || claim->started.thread == thread);
    if (!claim) {
      ++workers.sleepers;
      workers.wake.wait(lock);
      --workers.sleepers;
      continue;
    }
    const Started started = claim->started;
    const bool async = static_cast<bool>(claim->task.async);
    lock.unlock();
    std::exception_ptr error;
    if (!started.skipped) error = core_->execute(*claim);
    claim.reset();  // the function dies outside the lock
    lock.lock();
    if (started.skipped) continue;
    // Finishing and claiming the next op happen in one hold of the lock.
    if (async) {
      core_->thread_returned(started.op);
    } else {
      core_->finish(started.op, std::move(error));
    }
  }
}

void ThreadPoolScheduler::on_ready(std::span<const OpHandle> ready) {
  for (const OpHandle op : ready) {
    PoolWorkers& workers = *pools_[core_->rules().slot(op.slot).desc.pool];
    if (workers.sleepers > 0) workers.wake.notify_one();
  }
}

// Only the worker with the freed index can use it, and notify_one might pick another sleeper.
void ThreadPoolScheduler::on_thread_freed(dag::PoolId pool) {
  PoolWorkers& workers = *pools_[pool];
  if (workers.sleepers > 0) workers.wake.notify_all();
}

void ThreadPoolScheduler::on_progress() {
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
  core_->finish(op, std::move(error));
}

// `what` only matters to a scheduler that refuses to wait.
void ThreadPoolScheduler::wait(Lock& lock, const std::function<bool()>& done,
                               const std::string& /*what*/) {
  assert(!done());
  sleep_until(lock, done, std::chrono::steady_clock::time_point::max());
  assert(done());
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
