#include "runtime/comm/nccl/completions.hpp"

#include <cuda_runtime_api.h>

#include <cassert>
#include <exception>
#include <utility>

namespace ordo::comm {

NcclCompletions::NcclCompletions(int device) : device_(device) {}

NcclCompletions::~NcclCompletions() {
  std::unique_lock lock(mutex_);
  stop_ = true;
  std::thread thread = std::move(thread_);
  lock.unlock();
  changed_.notify_all();
  if (thread.joinable()) thread.join();
  assert(watched_.empty());
}

void NcclCompletions::watch(std::unique_ptr<Request> request, Communicator::Done done) {
  assert(request != nullptr && done);
  {
    const std::lock_guard lock(mutex_);
    assert(!stop_);
    watched_.push_back(Watched{std::move(request), std::move(done)});
    if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
  }
  changed_.notify_all();
}

std::size_t NcclCompletions::in_flight() const {
  const std::lock_guard lock(mutex_);
  return watched_.size();
}

void NcclCompletions::loop() {
  (void)cudaSetDevice(device_);  // a failure shows again, as an error, in the first wait
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [&] { return stop_ || !watched_.empty(); });
    if (watched_.empty()) return;  // stopped, and nothing left in flight
    // Only this thread removes entries, and watch() appends behind: the front stays put.
    Watched& front = watched_.front();
    lock.unlock();
    std::exception_ptr error;
    try {
      front.request->wait();
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    Watched ended = std::move(watched_.front());
    watched_.pop_front();
    lock.unlock();
    ended.request.reset();
    // No lock held: `done` may launch further collectives.
    complete_or_terminate(ended.done, error, "an NCCL collective");
    lock.lock();
  }
}

}  // namespace ordo::comm
