#include "runtime/exec/device/device_var_memory.hpp"

#include <cuda_runtime_api.h>

#include <stdexcept>

#include "runtime/cuda/cuda_error.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/cuda/devices.hpp"
#include "runtime/engine/cuda/cuda_device_queue.hpp"

namespace ordo::exec {
namespace {

class DeviceVarBlock final : public exec::VarBlock {
 public:
  explicit DeviceVarBlock(std::uint64_t bytes) : buffer_(bytes) {}
  std::byte* data() const override { return static_cast<std::byte*>(buffer_.data()); }

 private:
  cuda::DeviceBuffer buffer_;
};

}  // namespace

DeviceVarMemory::DeviceVarMemory(int device) : device_(device) {
  const std::uint32_t visible = cuda::visible_devices();
  if (device < 0 || static_cast<std::uint32_t>(device) >= visible) {
    throw std::invalid_argument("vars in device memory of GPU " + std::to_string(device) +
                                ": that GPU is not visible (" + std::to_string(visible) +
                                " visible); expected a GPU from 0 to the count visible - 1");
  }
  cuda::make_current(device_);
  zeroing_ = std::make_unique<cuda::Stream>();
  copying_ = std::make_unique<cuda::Stream>();
}

std::unique_ptr<exec::VarBlock> DeviceVarMemory::allocate(std::uint64_t bytes) {
  const std::lock_guard lock(mutex_);
  cuda::make_current(device_);
  auto block = std::make_unique<DeviceVarBlock>(bytes);
  cuda::check_cuda(cudaMemsetAsync(block->data(), 0, bytes, zeroing_->handle()), "cudaMemsetAsync");
  zeroing_->synchronize();
  return block;
}

void DeviceVarMemory::copy(std::span<const exec::ByteCopy> copies) {
  // The event is made on the memory's GPU, where the stream it is recorded on lives: a pool
  // thread may have any device current.
  cuda::make_current(device_);
  cuda::Event done(cuda::Event::Wait::sleep);
  {
    const std::lock_guard lock(copy_mutex_);
    try {
      for (const exec::ByteCopy& c : copies) {
        if (c.bytes == 0) continue;
        cuda::check_cuda(
            cudaMemcpyAsync(c.to, c.from, c.bytes, cudaMemcpyDeviceToDevice, copying_->handle()),
            "cudaMemcpyAsync (device to device)");
      }
      done.record(*copying_);
    } catch (...) {
      // The copies enqueued before the failure land before the op's failure is seen.
      (void)cudaStreamSynchronize(copying_->handle());
      throw;
    }
  }
  done.wait();
}

void DeviceVarMemory::enqueue_copy(std::span<const exec::ByteCopy> copies,
                                   engine::DeviceQueue& queue) {
  auto* const stream = dynamic_cast<engine::CudaDeviceQueue*>(&queue);
  if (stream == nullptr || stream->device() != device_) {
    throw std::invalid_argument("copies between vars in " + describe() +
                                " go on a CUDA stream of that GPU (a engine::CudaDeviceQueue); the "
                                "copy pool was given another queue");
  }
  cuda::make_current(device_);
  for (const exec::ByteCopy& c : copies) {
    if (c.bytes == 0) continue;
    cuda::check_cuda(
        cudaMemcpyAsync(c.to, c.from, c.bytes, cudaMemcpyDeviceToDevice, stream->stream().handle()),
        "cudaMemcpyAsync (device to device)");
  }
}

std::string DeviceVarMemory::describe() const {
  return "device memory of GPU " + std::to_string(device_);
}

}  // namespace ordo::exec
