#include "runtime/comm/nccl/request.hpp"

#include <utility>

#include "runtime/comm/nccl/error.hpp"
#include "runtime/cuda/cuda_error.hpp"

namespace ordo::comm {
namespace {

// The CUDA error, with the collective it happened to.
void check_event(cudaError_t code, const std::string& context, const char* call) {
  if (code != cudaSuccess) throw cuda::CudaError(context + ": " + call, code);
}

}  // namespace

NcclRequest::NcclRequest(cudaEvent_t event, ncclComm_t comm, std::string context)
    : event_(event), comm_(comm), context_(std::move(context)) {}

NcclRequest::~NcclRequest() {
  if (!over_) (void)cudaEventSynchronize(event_);
  (void)cudaEventDestroy(event_);
}

bool NcclRequest::test() {
  if (over_) return true;
  const cudaError_t state = cudaEventQuery(event_);
  if (state == cudaErrorNotReady) {
    ncclResult_t async = ncclSuccess;
    check_nccl(ncclCommGetAsyncError(comm_, &async), "ncclCommGetAsyncError", context_, comm_);
    if (async != ncclSuccess && async != ncclInProgress) {
      over_ = true;  // the communicator is broken: nothing more will complete on it
      throw NcclError("the collective", async, context_, comm_);
    }
    return false;
  }
  over_ = true;
  check_event(state, context_, "cudaEventQuery");
  return true;
}

void NcclRequest::wait() {
  if (over_) return;
  over_ = true;
  check_event(cudaEventSynchronize(event_), context_, "cudaEventSynchronize");
}

}  // namespace ordo::comm
