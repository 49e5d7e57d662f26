// Device memory and pinned (page-locked) host memory, owned: what device gradients live in and
// what staged MPI copies through. Copies are enqueued on a stream and return at once.
#pragma once

#include <cstddef>

#include "runtime/cuda/stream.hpp"

namespace ordo::cuda {

class DeviceBuffer {
 public:
  // Throws CudaError when the device cannot hold `bytes` (cudaErrorMemoryAllocation).
  explicit DeviceBuffer(std::size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

class PinnedBuffer {
 public:
  explicit PinnedBuffer(std::size_t bytes);
  ~PinnedBuffer();
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// Enqueue `bytes` from host memory to `to` at `offset` (and back). Throws std::out_of_range
// when the range does not lie within the device buffer, CudaError when the enqueue fails.
void copy_to_device(const void* from, DeviceBuffer& to, std::size_t offset, std::size_t bytes,
                    Stream& stream);
void copy_to_host(const DeviceBuffer& from, std::size_t offset, void* to, std::size_t bytes,
                  Stream& stream);

}  // namespace ordo::cuda
