// The staged path's copies on a GPU: cudaMemcpyAsync between device memory and pinned host
// memory, on two streams of the stager's own (one per direction, so a copy in and a copy out
// overlap each other on a full-duplex link as well as the host collective), each copy marked by
// an event that wait() sleeps on.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <unordered_map>
#include <vector>

#include "runtime/comm/staged/stager.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/cuda/stream.hpp"

namespace ordo::comm {

// Used by one thread at a time (the staged communicator runs one collective at a time), not
// always the same one: every call makes the stager's device current first.
class CudaStager final : public comm::Stager {
 public:
  // Throws CudaError when `device` cannot be used.
  explicit CudaStager(int device);
  // Waits for the copies still in flight.
  ~CudaStager() override;
  CudaStager(const CudaStager&) = delete;
  CudaStager& operator=(const CudaStager&) = delete;

  // Pinned memory (cudaMallocHost), grown to the largest size asked for and then kept.
  void* host(std::size_t bytes) override;
  Copy to_host(const void* device, void* host, std::size_t bytes) override;
  Copy to_device(const void* host, void* device, std::size_t bytes) override;
  // cudaEventSynchronize on a blocking-sync event; throws CudaError for a failed copy.
  void wait(Copy copy) override;

 private:
  Copy enqueue(cuda::Stream& stream, void* to, const void* from, std::size_t bytes,
               cudaMemcpyKind kind);
  cudaEvent_t take_event();

  int device_;
  cuda::Stream to_host_;    // device to host copies
  cuda::Stream to_device_;  // host to device copies
  std::unique_ptr<cuda::PinnedBuffer> area_;
  std::unordered_map<Copy, cudaEvent_t> pending_;  // recorded after each copy in flight
  std::vector<cudaEvent_t> spare_;                 // events of copies waited for, for reuse
  Copy issued_ = 0;
};

}  // namespace ordo::comm
