#include "runtime/engine/cuda/cuda_device_queue.hpp"

#include <cassert>
#include <exception>
#include <utility>

#include "runtime/cuda/cuda_error.hpp"
#include "runtime/cuda/devices.hpp"

namespace ordo::engine {
namespace {

int current_device() {
  int device = 0;
  cuda::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  return device;
}

}  // namespace

CudaDeviceQueue::CudaDeviceQueue() : device_(current_device()), thread_([this] { progress(); }) {}

CudaDeviceQueue::CudaDeviceQueue(cuda::Stream::LegacyDefault legacy)
    : device_(current_device()), stream_(legacy), thread_([this] { progress(); }) {}

CudaDeviceQueue::~CudaDeviceQueue() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
  }
  wake_.notify_one();
  thread_.join();
  assert(markers_.empty());
  for (const cudaEvent_t event : spare_) (void)cudaEventDestroy(event);
}

cudaEvent_t CudaDeviceQueue::take_event() {
  if (!spare_.empty()) {
    const cudaEvent_t event = spare_.back();
    spare_.pop_back();
    return event;
  }
  cuda::make_current(device_);
  cudaEvent_t event = nullptr;
  cuda::check_cuda(cudaEventCreateWithFlags(&event, cudaEventBlockingSync | cudaEventDisableTiming),
                   "cudaEventCreateWithFlags");
  return event;
}

void CudaDeviceQueue::mark(Reached reached) {
  const std::lock_guard<std::mutex> lock(mutex_);
  // The legacy default stream is the current device's: record on this queue's.
  cuda::make_current(device_);
  const cudaEvent_t event = take_event();
  const cudaError_t recorded = cudaEventRecord(event, stream_.handle());
  if (recorded != cudaSuccess) {
    spare_.push_back(event);
    throw cuda::CudaError("cudaEventRecord", recorded);
  }
  // Recorded under the lock, so the progress thread sees markers in the stream's order; notified
  // under it, since once it is free the marker may be reached, its op's waiter return and the
  // queue be destroyed.
  markers_.push_back(Marker{event, std::move(reached)});
  wake_.notify_one();
}

void CudaDeviceQueue::progress() {
  (void)cudaSetDevice(device_);
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return closing_ || !markers_.empty(); });
    if (markers_.empty()) return;  // closing, and every marker was reached
    Marker marker = std::move(markers_.front());
    markers_.pop_front();
    lock.unlock();
    // Sleeps in the driver (a blocking-sync event) until the stream passes the marker.
    const cudaError_t status = cudaEventSynchronize(marker.event);
    std::exception_ptr error;
    if (status != cudaSuccess) {
      error = std::make_exception_ptr(
          cuda::CudaError("cudaEventSynchronize on a device op's completion marker", status));
    }
    marker.reached(std::move(error));
    marker.reached = nullptr;  // its captures (a completion handle) die outside the lock
    lock.lock();
    spare_.push_back(marker.event);
  }
}

}  // namespace ordo::engine
