#include "runtime/comm/staged/host_stager.hpp"

#include <cassert>
#include <cstring>

namespace ordo::comm {

HostStager::HostStager() : thread_([this] { loop(); }) {}

HostStager::~HostStager() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void* HostStager::host(std::size_t bytes) {
  if (area_.size() < bytes) area_.resize(bytes);
  return area_.data();
}

Stager::Copy HostStager::to_host(const void* device, void* host, std::size_t bytes) {
  return enqueue(host, device, bytes);
}

Stager::Copy HostStager::to_device(const void* host, void* device, std::size_t bytes) {
  return enqueue(device, host, bytes);
}

Stager::Copy HostStager::enqueue(void* to, const void* from, std::size_t bytes) {
  Copy copy = 0;
  {
    const std::lock_guard lock(mutex_);
    assert(!stop_);
    copy = ++issued_;
    queue_.push_back(Pending{copy, to, from, bytes});
  }
  changed_.notify_all();
  return copy;
}

void HostStager::wait(Copy copy) {
  std::unique_lock lock(mutex_);
  assert(copy >= 1 && copy <= issued_);
  changed_.wait(lock, [&] { return landed_ >= copy; });
}

void HostStager::loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopped, and nothing left to copy
    const Pending next = queue_.front();
    queue_.pop_front();
    lock.unlock();
    if (next.bytes > 0) std::memcpy(next.to, next.from, next.bytes);
    lock.lock();
    landed_ = next.copy;
    changed_.notify_all();
  }
}

}  // namespace ordo::comm
