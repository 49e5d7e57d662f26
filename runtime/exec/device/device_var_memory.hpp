// An executor's vars in device memory (exec::VarMemory): gradients that NCCL, staged MPI or
// CUDA-aware MPI reduce where they are, with no copy to the host. Copy ops copy device to device
// on the GPU, waited for or enqueued on a copy stream. The host never touches them: compute hooks
// that compute on the host and Buffers::as/fill refuse such vars (runtime/exec/var_memory.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "runtime/cuda/stream.hpp"
#include "runtime/exec/var_memory.hpp"

namespace ordo::exec {

class DeviceVarMemory final : public exec::VarMemory {
 public:
  // Vars on GPU `device`. Throws std::invalid_argument when that GPU is not visible (none is,
  // without a driver or a device), CudaError when its stream cannot be made.
  explicit DeviceVarMemory(int device);

  // cudaMalloc on the device, zeroed before it returns (a var starts as zeros, as on the host;
  // the zeroing goes on a stream of its own, so it waits for no one else's work). Throws
  // CudaError when the device cannot hold `bytes`. The caller's current device is left as it was.
  std::unique_ptr<exec::VarBlock> allocate(std::uint64_t bytes) override;
  bool host_visible() const override { return false; }
  std::string describe() const override;  // "device memory of GPU 0"
  std::optional<int> gpu() const override { return device_; }
  // cudaMemcpyAsync device to device on a stream of its own, then a sleeping wait on an event
  // behind the last: the copy op's pool thread sleeps, no core spins. Several threads copy at
  // once; their copies share the stream and so run one after another on the device.
  void copy(std::span<const exec::ByteCopy> copies) override;
  // cudaMemcpyAsync device to device on the queue's stream, which must be a CudaDeviceQueue of
  // this memory's GPU (std::invalid_argument otherwise): the copy pool's device ops.
  void enqueue_copy(std::span<const exec::ByteCopy> copies, engine::DeviceQueue& queue) override;
  int device() const { return device_; }

 private:
  int device_;
  std::mutex mutex_;  // the stream is used by one allocation at a time
  std::unique_ptr<cuda::Stream> zeroing_;
  std::mutex copy_mutex_;  // held while a caller enqueues its copies and marks their end
  std::unique_ptr<cuda::Stream> copying_;
};

}  // namespace ordo::exec
