// The one stream a rank launches all its NCCL collectives on, whatever their communicator, and
// the lock that makes the launch order the stream order. NCCL communicators are not thread safe,
// and NCCL matches the n-th launch on a communicator with every member's n-th, exactly as MPI
// matches issues: two threads launching at once would let two ranks' orders differ. One stream
// also fixes completion: the stream runs the launches one after another, so every collective of
// the rank completes in launch order, across all its communicators (docs/gpu.md).
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "runtime/comm/nccl/request.hpp"
#include "runtime/cuda/stream.hpp"

namespace ordo::comm {

class NcclLaunchStream {
 public:
  // A non-blocking stream on `device`. Throws CudaError if the device cannot be used.
  explicit NcclLaunchStream(int device);
  NcclLaunchStream(const NcclLaunchStream&) = delete;
  NcclLaunchStream& operator=(const NcclLaunchStream&) = delete;

  int device() const { return device_; }

  // Under the lock, on this stream's device: `issue(stream)` (one NCCL call), then an event
  // recorded right after it, whose request is returned. `function` and `context` name the call
  // for errors; `comm` is the communicator it runs on. Throws NcclError if NCCL refuses the
  // launch and CudaError if the event cannot be made or recorded.
  std::unique_ptr<NcclRequest> launch(const std::function<ncclResult_t(cudaStream_t)>& issue,
                                      ncclComm_t comm, const char* function,
                                      const std::string& context);

  // Blocks until everything launched has run.
  void synchronize();

 private:
  int device_;
  std::mutex mutex_;
  std::unique_ptr<cuda::Stream> stream_;  // made once device_ is current
};

}  // namespace ordo::comm
