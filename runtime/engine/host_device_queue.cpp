#include "runtime/engine/host_device_queue.hpp"

#include <cassert>
#include <utility>

#include "runtime/engine/errors.hpp"

namespace ordo::engine {

HostDeviceQueue::HostDeviceQueue() : thread_([this] { run(); }) {}

HostDeviceQueue::~HostDeviceQueue() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
  }
  wake_.notify_one();
  thread_.join();
  assert(items_.empty() && markers_pending_ == 0);
}

void HostDeviceQueue::enqueue(std::function<void()> work) {
  if (!work) throw UsageError("work enqueued on a host device queue without a function");
  // Notified under the lock: once the lock is free the queue may be destroyed (the op this
  // work belongs to can complete and its waiter return), and the condition variable with it.
  const std::lock_guard<std::mutex> lock(mutex_);
  items_.push_back(Item{std::move(work), {}});
  wake_.notify_one();
}

void HostDeviceQueue::mark(Reached reached) {
  if (!reached) throw UsageError("marker recorded on a host device queue without a callback");
  const std::lock_guard<std::mutex> lock(mutex_);  // notified under it, as in enqueue()
  items_.push_back(Item{{}, std::move(reached)});
  ++markers_pending_;
  wake_.notify_one();
}

std::uint64_t HostDeviceQueue::markers_pending() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return markers_pending_;
}

void HostDeviceQueue::run() {
  std::exception_ptr error;  // the first failure since the last marker; only this thread's
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return closing_ || !items_.empty(); });
    if (items_.empty()) return;  // closing, and everything enqueued has run
    Item item = std::move(items_.front());
    items_.pop_front();
    lock.unlock();
    const bool marker = !item.work;
    if (marker) {
      item.reached(std::exchange(error, nullptr));
    } else if (!error) {
      try {
        item.work();
      } catch (...) {
        error = std::current_exception();
      }
    }
    // The item's captures (a completion handle among them) die before the next item runs.
    item = Item{};
    lock.lock();
    if (marker) --markers_pending_;
  }
}

}  // namespace ordo::engine
