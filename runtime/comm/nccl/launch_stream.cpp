#include "runtime/comm/nccl/launch_stream.hpp"

#include "runtime/comm/nccl/error.hpp"
#include "runtime/cuda/cuda_error.hpp"

namespace ordo::comm {

NcclLaunchStream::NcclLaunchStream(int device) : device_(device) {
  cuda::check_cuda(cudaSetDevice(device_), "cudaSetDevice");
  stream_ = std::make_unique<cuda::Stream>();
}

std::unique_ptr<NcclRequest> NcclLaunchStream::launch(
    const std::function<ncclResult_t(cudaStream_t)>& issue, ncclComm_t comm, const char* function,
    const std::string& context) {
  // The current device is per thread, and engine threads launch: every launch sets it.
  cuda::check_cuda(cudaSetDevice(device_), "cudaSetDevice");
  // Made outside the lock (creating an event may take the driver's own locks for a while);
  // blocking synchronisation, so that waiting on it sleeps rather than spins; no timing, the
  // cheapest kind.
  cudaEvent_t event = nullptr;
  cuda::check_cuda(cudaEventCreateWithFlags(&event, cudaEventBlockingSync | cudaEventDisableTiming),
                   "cudaEventCreateWithFlags");
  try {
    const std::lock_guard lock(mutex_);
    check_nccl(issue(stream_->handle()), function, context, comm);
    cuda::check_cuda(cudaEventRecord(event, stream_->handle()), "cudaEventRecord");
  } catch (...) {
    (void)cudaEventDestroy(event);
    throw;
  }
  return std::make_unique<NcclRequest>(event, comm, context);
}

void NcclLaunchStream::synchronize() {
  cuda::check_cuda(cudaSetDevice(device_), "cudaSetDevice");
  stream_->synchronize();
}

}  // namespace ordo::comm
