// A CUDA stream and the events that mark points in it: the engine's device pools enqueue work on
// a stream and learn that it is done from an event (docs/gpu.md), never by blocking a core.
#pragma once

#include <cuda_runtime_api.h>

namespace ordo::cuda {

class Stream {
 public:
  // A non-blocking stream (it does not wait for the legacy default stream) on the current device.
  Stream();
  // The legacy default stream (cudaStreamLegacy) of whichever device is current where it is
  // used: not made, not destroyed.
  struct LegacyDefault {};
  explicit Stream(LegacyDefault);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t handle() const { return stream_; }
  // Blocks until everything enqueued so far has run; throws CudaError for a failed one.
  void synchronize();

 private:
  cudaStream_t stream_ = nullptr;
  bool owned_ = true;
};

// An event recorded on a stream: done() once the stream has passed it, without blocking.
class Event {
 public:
  // How wait() waits: the driver's default (it may spin a core), or asleep in the driver
  // (cudaEventBlockingSync), for a host thread that waits while others compute.
  enum class Wait { spin, sleep };
  explicit Event(Wait wait = Wait::spin);  // timing off: the cheapest kind, for completion only
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(Stream& stream);
  // Whether the stream has reached the point recorded; throws CudaError for an error on it.
  bool done() const;
  // Blocks until the stream has reached the point recorded; throws CudaError for an error on it.
  void wait() const;

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace ordo::cuda
