#include "runtime/comm/device/cuda_aware_communicator.hpp"

#include <cuda_runtime_api.h>

#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

#include "runtime/comm/mpi/collectives.hpp"
#include "runtime/comm/mpi/error.hpp"
#include "runtime/comm/rules/call.hpp"
#include "runtime/cuda/cuda_error.hpp"
#include "runtime/cuda/devices.hpp"

namespace ordo::comm {

CudaAwareCommunicator::CudaAwareCommunicator(comm::MpiCommunicator& mpi,
                                             const comm::MpiTypeTable& types)
    : WrappedCommunicator(mpi),
      mpi_(mpi),
      types_(types),
      worker_(mpi.name(), [this](const comm::Call& call, void* buffer, bool /*blocking*/) {
        run(call, buffer);
      }) {}

void CudaAwareCommunicator::run(const comm::Call& call, void* buffer) {
  // Open MPI's CUDA support and the block move below work on the buffer's GPU, which the thread
  // running the call (a worker, a pool thread) may not have current.
  if (buffer != nullptr) {
    cudaPointerAttributes where{};
    cuda::check_cuda(cudaPointerGetAttributes(&where, buffer), "cudaPointerGetAttributes");
    if (where.type == cudaMemoryTypeDevice) cuda::make_current(where.device);
  }
  if (call.kind == dag::CollectiveKind::reduce_scatter) {
    reduce_scatter(call, buffer);
  } else {
    mpi_.call(call, buffer);
  }
}

void CudaAwareCommunicator::reduce_scatter(const comm::Call& call, void* buffer) {
  comm::check_call(call, buffer, name(), size());
  const std::uint64_t block = call.count / size();
  if (block > INT_MAX) {
    throw std::invalid_argument(comm::describe(call, name()) + ": each rank's block of " +
                                std::to_string(block) +
                                " elements exceeds the largest MPI call; a block is never split");
  }
  try {
    comm::mpi_call::reduce_scatter_block(mpi_.handle(), buffer, static_cast<int>(block),
                                         types_.datatype(call.dtype),
                                         types_.op(call.dtype, call.reduction));
  } catch (const comm::MpiError& error) {
    throw comm::MpiError(error.function(), error.code(), comm::describe(call, name()));
  }
  const std::size_t block_bytes = block * types_.element_bytes(call.dtype);
  if (rank() == 0 || block_bytes == 0) return;
  std::byte* const front = static_cast<std::byte*>(buffer);
  // The blocks do not overlap: block i starts i * block_bytes in, and rank() >= 1.
  cuda::check_cuda(cudaMemcpy(front + rank() * block_bytes, front, block_bytes, cudaMemcpyDefault),
                   "cudaMemcpy");
  // A device-to-device cudaMemcpy returns before it has run; the call completes once the block
  // is in place, for whatever stream reads it next.
  cuda::check_cuda(cudaStreamSynchronize(cudaStreamLegacy), "cudaStreamSynchronize");
}

void CudaAwareCommunicator::call(const comm::Call& call, void* buffer) {
  comm::check_call(call, buffer, name(), size());
  worker_.call(call, buffer);
}

std::unique_ptr<comm::Request> CudaAwareCommunicator::start(const comm::Call& call, void* buffer) {
  comm::check_call(call, buffer, name(), size());
  return worker_.start(call, buffer);
}

void CudaAwareCommunicator::call_then(const comm::Call& call, void* buffer, Done done) {
  try {
    comm::check_call(call, buffer, name(), size());
  } catch (...) {
    done(std::current_exception());
    return;
  }
  worker_.then(call, buffer, true, std::move(done));
}

void CudaAwareCommunicator::start_then(const comm::Call& call, void* buffer, Done done) {
  // Blocking underneath as well (Open MPI's CUDA support has no non-blocking collectives): the
  // two callback forms are one.
  call_then(call, buffer, std::move(done));
}

}  // namespace ordo::comm
