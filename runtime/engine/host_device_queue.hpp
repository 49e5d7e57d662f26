// A DeviceQueue whose "device" is one host thread: it runs the functions enqueued, one after
// another in enqueue order, and reaches each marker when every function before it has run. It
// stands in for a CUDA stream where there is none (the engine's tests, ThreadSanitizer builds),
// and behaves as a stream does in what the engine can see: work runs in order, apart from the
// thread that enqueued it, and completions arrive in stream order from a thread of the queue's.
//
// A function that throws is that op's failure: the functions after it up to the next marker (the
// rest of the same op's work) are skipped, and the marker reports the exception. Work after the
// marker runs as usual; a host function, unlike a faulting kernel, leaves nothing broken.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "runtime/engine/device_queue.hpp"

namespace ordo::engine {

class HostDeviceQueue final : public DeviceQueue {
 public:
  HostDeviceQueue();
  // Runs what is still enqueued, reaches every marker, then joins the thread. Work that never
  // returns would hang it, as destroying a stream waits for its kernels.
  ~HostDeviceQueue() override;

  // Appends `work`; it runs on the queue's thread after everything enqueued before it.
  void enqueue(std::function<void()> work);
  void mark(Reached reached) override;
  std::optional<int> gpu() const override { return std::nullopt; }

  // Markers recorded and not yet reached (their callbacks not yet returned): for tests.
  std::uint64_t markers_pending() const;

 private:
  // Exactly one of the two is set.
  struct Item {
    std::function<void()> work;
    Reached reached;
  };
  void run();

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Item> items_;
  std::uint64_t markers_pending_ = 0;
  bool closing_ = false;
  std::thread thread_;  // last: started once everything above exists
};

}  // namespace ordo::engine
