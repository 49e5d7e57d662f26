// The engine's DeviceQueue on a CUDA stream: device ops launch their work on stream() and return;
// each marker is an event recorded behind that work, and a progress thread of the queue's own
// reports it reached (engine/device_pool.hpp, docs/engine.md "Device pools").
//
// Why a progress thread waiting on blocking-sync events rather than a host callback
// (cudaLaunchHostFunc) on the stream:
// - A host function is a stream operation: the stream waits until it returns. Completing an op
//   takes the engine's lock and may ready and wake other ops, so every contended lock or slow
//   completion would stall the GPU behind it. The progress thread completes ops while the stream
//   runs on.
// - A host function must not call CUDA, and it is not called at all once the context has failed
//   (a faulting kernel): the op would never complete and everything behind it would hang. The
//   progress thread gets the error from cudaEventSynchronize and fails the op with it, which
//   poisons its writes, and it may recycle its events with CUDA calls of its own.
// - Every host function of the process runs on one driver thread; one queue's slow completion
//   would delay every other stream's.
// The events are created with cudaEventBlockingSync, so cudaEventSynchronize puts the progress
// thread to sleep in the driver until the GPU passes the event: no core spins while the device
// works. One thread per queue waits on the events in the order they were recorded, which is the
// stream's order, so markers are reached in order. The cost is a thread wake-up per marker (a
// few microseconds), paid off the pool threads.
#pragma once

#include <cuda_runtime_api.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "runtime/cuda/stream.hpp"
#include "runtime/engine/device_queue.hpp"

namespace ordo::engine {

class CudaDeviceQueue final : public engine::DeviceQueue {
 public:
  // A new non-blocking stream on the calling thread's current device, and the progress thread.
  // Throws CudaError where the stream cannot be made (no GPU).
  CudaDeviceQueue();
  // The queue on the current device's legacy default stream, where libtorch launches its kernels
  // unless a stream of its own is made current: the trainer's compute pool marks behind them.
  explicit CudaDeviceQueue(cuda::Stream::LegacyDefault legacy);
  // Waits until every marker recorded has been reached and reported, then joins the thread: work
  // that never ends would hang it, as it hangs cudaStreamDestroy's callers.
  ~CudaDeviceQueue() override;

  // Where a device op enqueues its work (kernels, cudaMemcpyAsync, device_buffer.hpp's copies).
  cuda::Stream& stream() { return stream_; }
  int device() const { return device_; }

  // Records an event behind the work on stream() (throws CudaError when that fails).
  void mark(Reached reached) override;
  std::optional<int> gpu() const override { return device_; }

 private:
  struct Marker {
    cudaEvent_t event = nullptr;
    Reached reached;
  };
  cudaEvent_t take_event();  // under mutex_
  void progress();

  int device_ = 0;
  cuda::Stream stream_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Marker> markers_;      // recorded, not yet reached, in record order
  std::vector<cudaEvent_t> spare_;  // reached events, recorded again by later markers
  bool closing_ = false;
  std::thread thread_;  // last: started once everything above exists
};

}  // namespace ordo::engine
