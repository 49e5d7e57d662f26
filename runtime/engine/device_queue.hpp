// An in-order queue of device work, as the engine's device pools see it (MXNet's GPU model): an
// op's function enqueues its work and returns at once, then records a completion marker behind
// it; the queue reports the marker reached once everything enqueued before it has run, and the
// op completes then. The engine needs nothing more of a device, so it stays free of CUDA: a CUDA
// stream is one implementation (runtime/engine/cuda/cuda_device_queue.hpp), a host thread another
// (host_device_queue.hpp), for the tests that run everywhere and under ThreadSanitizer.
//
// How work is enqueued is each implementation's own (a kernel launch on a stream, a function on
// a thread); only the marker is common.
#pragma once

#include <exception>
#include <functional>
#include <optional>

namespace ordo::engine {

class DeviceQueue {
 public:
  // Called once per marker with the first error the work before it met since the previous
  // marker (null: it all succeeded). It must not throw: nobody is there to catch it.
  using Reached = std::function<void(std::exception_ptr)>;

  DeviceQueue() = default;
  DeviceQueue(const DeviceQueue&) = delete;
  DeviceQueue& operator=(const DeviceQueue&) = delete;
  virtual ~DeviceQueue() = default;

  // Records a marker behind everything enqueued so far and returns without waiting for it.
  // `reached` runs once the queue has run all that work, on a thread of the queue's own (never
  // the caller's, so it may take the engine's lock), and markers are reached in the order they
  // were recorded. A queue being destroyed still reaches every marker recorded before.
  // Throws when the marker cannot be recorded; `reached` is then destroyed without being called.
  virtual void mark(Reached reached) = 0;

  // The GPU whose work the queue orders (its CUDA device index), or none for a queue of host
  // work: a marker orders only work on its own queue, so callers check the queue is on the device
  // their memory is.
  virtual std::optional<int> gpu() const = 0;
};

}  // namespace ordo::engine
