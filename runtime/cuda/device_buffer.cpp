#include "runtime/cuda/device_buffer.hpp"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

#include "runtime/cuda/cuda_error.hpp"

namespace ordo::cuda {

namespace {

void check_range(const DeviceBuffer& buffer, std::size_t offset, std::size_t bytes) {
  if (offset > buffer.bytes() || bytes > buffer.bytes() - offset) {
    throw std::out_of_range("bytes " + std::to_string(offset) + " to " + std::to_string(offset) +
                            " + " + std::to_string(bytes) + " of a device buffer of " +
                            std::to_string(buffer.bytes()));
  }
}

}  // namespace

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  check_cuda(cudaMalloc(&data_, bytes), "cudaMalloc");
}

DeviceBuffer::~DeviceBuffer() { (void)cudaFree(data_); }

PinnedBuffer::PinnedBuffer(std::size_t bytes) : bytes_(bytes) {
  check_cuda(cudaMallocHost(&data_, bytes), "cudaMallocHost");
}

PinnedBuffer::~PinnedBuffer() { (void)cudaFreeHost(data_); }

void copy_to_device(const void* from, DeviceBuffer& to, std::size_t offset, std::size_t bytes,
                    Stream& stream) {
  check_range(to, offset, bytes);
  check_cuda(cudaMemcpyAsync(static_cast<char*>(to.data()) + offset, from, bytes,
                             cudaMemcpyHostToDevice, stream.handle()),
             "cudaMemcpyAsync");
}

void copy_to_host(const DeviceBuffer& from, std::size_t offset, void* to, std::size_t bytes,
                  Stream& stream) {
  check_range(from, offset, bytes);
  check_cuda(cudaMemcpyAsync(to, static_cast<const char*>(from.data()) + offset, bytes,
                             cudaMemcpyDeviceToHost, stream.handle()),
             "cudaMemcpyAsync");
}

}  // namespace ordo::cuda
