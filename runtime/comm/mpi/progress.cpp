#include "runtime/comm/mpi/progress.hpp"

#include <algorithm>
#include <cassert>
#include <exception>
#include <utility>

namespace ordo::comm {

namespace {

// Polling costs a core, which on a small node is one an MPI rank needs; sleeping adds latency
// to the completion. Worse, Open MPI's non-blocking collectives (libnbc) advance a round of their
// schedule only inside a test, so a sleeping thread stretches every round of a large allreduce,
// not only its end: with 50 us of polling, ResNet-50's step under the nonblocking design took
// 1.9x a depcha step (docs/benchmarks.md). The thread polls, yielding the core to any thread
// that wants it, for 20 ms after each completion or new request (several large keys' allreduces
// on shared memory), then backs off by doubling sleeps up to a cap, so a
// collective waiting for a late rank costs little CPU and ends at most a cap late.
constexpr std::chrono::microseconds busy_poll{20000};
constexpr std::chrono::microseconds first_sleep{10};
constexpr std::chrono::microseconds longest_sleep{500};

}  // namespace

MpiProgress::~MpiProgress() {
  std::unique_lock lock(mutex_);
  stop_ = true;
  changed_.notify_all();
  std::thread thread = std::move(thread_);
  lock.unlock();
  if (thread.joinable()) thread.join();
  assert(watched_.empty());
}

void MpiProgress::watch(std::unique_ptr<Request> request, Communicator::Done done) {
  assert(request != nullptr && done);
  const std::lock_guard lock(mutex_);
  assert(!stop_);
  watched_.push_back(Watched{std::move(request), std::move(done)});
  ++submitted_;
  if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
  changed_.notify_all();
}

std::size_t MpiProgress::in_flight() const {
  const std::lock_guard lock(mutex_);
  return watched_.size();
}

std::size_t MpiProgress::sweep(std::unique_lock<std::mutex>& lock) {
  // Only this thread removes entries, so the ones present now stay put while the lock is released;
  // watch() may append behind them (which can move them: hence the batch taken out here).
  std::vector<Watched> batch = std::move(watched_);
  watched_.clear();
  lock.unlock();
  std::vector<Watched> still;
  std::vector<std::pair<Communicator::Done, std::exception_ptr>> ended;
  for (Watched& w : batch) {
    std::exception_ptr error;
    bool over = false;
    try {
      over = w.request->test();
    } catch (...) {
      error = std::current_exception();
      over = true;
    }
    if (over) {
      ended.emplace_back(std::move(w.done), error);
    } else {
      still.push_back(std::move(w));
    }
  }
  // Ended requests' callbacks run with no lock held: they may start new collectives.
  for (auto& [done, error] : ended) {
    complete_or_terminate(done, error, "a non-blocking collective");
  }
  lock.lock();
  for (Watched& w : watched_) still.push_back(std::move(w));
  watched_ = std::move(still);
  return ended.size();
}

void MpiProgress::loop() {
  std::unique_lock lock(mutex_);
  auto busy_until = std::chrono::steady_clock::now() + busy_poll;
  std::chrono::microseconds sleep = first_sleep;
  while (true) {
    if (watched_.empty()) {
      // A stop with nothing in flight ends the loop; with requests left it waits them out.
      if (stop_) return;
      changed_.wait(lock, [&] { return stop_ || !watched_.empty(); });
      busy_until = std::chrono::steady_clock::now() + busy_poll;
      sleep = first_sleep;
      continue;
    }
    const std::uint64_t submitted = submitted_;
    if (sweep(lock) > 0 || submitted_ != submitted) {
      busy_until = std::chrono::steady_clock::now() + busy_poll;
      sleep = first_sleep;
      continue;
    }
    if (std::chrono::steady_clock::now() < busy_until) {
      lock.unlock();
      std::this_thread::yield();
      lock.lock();
      continue;
    }
    // A new request wakes the wait early.
    changed_.wait_for(lock, sleep);
    sleep = std::min(sleep * 2, longest_sleep);
  }
}

}  // namespace ordo::comm
