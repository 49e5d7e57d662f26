#include "runtime/comm/device/cuda_stager.hpp"

#include <cassert>
#include <stdexcept>
#include <string>

#include "runtime/cuda/cuda_error.hpp"

namespace ordo::comm {
namespace {

// Makes `device` current, for the members constructed after it (streams are made on the
// current device).
int made_current(int device) {
  cuda::check_cuda(cudaSetDevice(device), "cudaSetDevice");
  return device;
}

}  // namespace

CudaStager::CudaStager(int device) : device_(made_current(device)) {}

CudaStager::~CudaStager() {
  (void)cudaSetDevice(device_);
  for (const auto& [copy, event] : pending_) {
    (void)cudaEventSynchronize(event);
    (void)cudaEventDestroy(event);
  }
  for (const cudaEvent_t event : spare_) (void)cudaEventDestroy(event);
}

void* CudaStager::host(std::size_t bytes) {
  assert(pending_.empty());
  if (area_ == nullptr || area_->bytes() < bytes) {
    cuda::check_cuda(cudaSetDevice(device_), "cudaSetDevice");
    area_.reset();  // the old one first: pinned memory is scarce
    area_ = std::make_unique<cuda::PinnedBuffer>(bytes);
  }
  return area_->data();
}

comm::Stager::Copy CudaStager::to_host(const void* device, void* host, std::size_t bytes) {
  return enqueue(to_host_, host, device, bytes, cudaMemcpyDeviceToHost);
}

comm::Stager::Copy CudaStager::to_device(const void* host, void* device, std::size_t bytes) {
  return enqueue(to_device_, device, host, bytes, cudaMemcpyHostToDevice);
}

cudaEvent_t CudaStager::take_event() {
  if (!spare_.empty()) {
    const cudaEvent_t event = spare_.back();
    spare_.pop_back();
    return event;
  }
  cudaEvent_t event = nullptr;
  cuda::check_cuda(cudaEventCreateWithFlags(&event, cudaEventBlockingSync | cudaEventDisableTiming),
                   "cudaEventCreateWithFlags");
  return event;
}

comm::Stager::Copy CudaStager::enqueue(cuda::Stream& stream, void* to, const void* from,
                                       std::size_t bytes, cudaMemcpyKind kind) {
  cuda::check_cuda(cudaSetDevice(device_), "cudaSetDevice");
  const cudaEvent_t event = take_event();
  const cudaError_t copied = cudaMemcpyAsync(to, from, bytes, kind, stream.handle());
  const cudaError_t recorded =
      copied == cudaSuccess ? cudaEventRecord(event, stream.handle()) : cudaSuccess;
  if (copied != cudaSuccess || recorded != cudaSuccess) {
    spare_.push_back(event);
    cuda::check_cuda(copied, "cudaMemcpyAsync");
    cuda::check_cuda(recorded, "cudaEventRecord");
  }
  const Copy copy = ++issued_;
  pending_.emplace(copy, event);
  return copy;
}

void CudaStager::wait(Copy copy) {
  const auto found = pending_.find(copy);
  if (found == pending_.end()) {
    throw std::logic_error("CudaStager::wait: copy " + std::to_string(copy) +
                           " was never enqueued here, or was waited for already");
  }
  const cudaEvent_t event = found->second;
  pending_.erase(found);
  spare_.push_back(event);
  cuda::check_cuda(cudaEventSynchronize(event), "cudaEventSynchronize");
}

}  // namespace ordo::comm
