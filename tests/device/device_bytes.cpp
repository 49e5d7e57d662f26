#include "device_bytes.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "runtime/cuda/cuda_error.hpp"

namespace ordo::cuda::test {

std::unique_ptr<DeviceBuffer> upload(const std::vector<std::byte>& bytes) {
  auto buffer = std::make_unique<DeviceBuffer>(std::max<std::size_t>(1, bytes.size()));
  check_cuda(cudaMemcpy(buffer->data(), bytes.data(), bytes.size(), cudaMemcpyHostToDevice),
             "cudaMemcpy");
  return buffer;
}

std::vector<std::byte> download(const DeviceBuffer& buffer, std::size_t bytes) {
  std::vector<std::byte> out(bytes);
  check_cuda(cudaMemcpy(out.data(), buffer.data(), bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  return out;
}

}  // namespace ordo::cuda::test
