#include "runtime/comm/nccl/communicator.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

#include "runtime/comm/nccl/types.hpp"
#include "runtime/comm/rules/backend.hpp"
#include "runtime/comm/rules/call.hpp"
#include "runtime/cuda/cuda_error.hpp"

namespace ordo::comm {

NcclCommunicator::NcclCommunicator(ncclComm_t comm, std::string name, dag::Rank rank,
                                   std::uint32_t size, NcclLaunchStream& stream,
                                   NcclCompletions& completions)
    : comm_(comm),
      name_(std::move(name)),
      rank_(rank),
      size_(size),
      stream_(stream),
      completions_(completions),
      barrier_word_(sizeof(std::int32_t)) {
  // Defined contents, so that no tool sees the barrier read uninitialised memory.
  cuda::check_cuda(cudaMemset(barrier_word_.data(), 0, barrier_word_.bytes()), "cudaMemset");
}

NcclCommunicator::~NcclCommunicator() { (void)ncclCommDestroy(comm_); }

void NcclCommunicator::check(const Call& call, const void* buffer) const {
  check_call(call, buffer, name_, size_);
  const auto elements_max = static_cast<std::uint64_t>(std::numeric_limits<std::ptrdiff_t>::max()) /
                            dag::dtype_bytes(call.dtype);
  if (call.count > elements_max) {
    throw std::invalid_argument(describe(call, name_) + ": no buffer can hold " +
                                std::to_string(call.count) + " elements");
  }
}

std::unique_ptr<NcclRequest> NcclCommunicator::launch(const Call& call, void* buffer) {
  check(call, buffer);
  const std::string context = describe(call, name_);
  if (call.kind == dag::CollectiveKind::barrier) {
    void* const word = barrier_word_.data();
    return stream_.launch(
        [&](cudaStream_t s) { return ncclAllReduce(word, word, 1, ncclInt32, ncclSum, comm_, s); },
        comm_, "ncclAllReduce", context);
  }
  ncclDataType_t datatype{};
  ncclRedOp_t op{};
  try {
    datatype = nccl_datatype(call.dtype);
    if (dag::takes_reduction(call.kind)) op = nccl_op(call.reduction);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(context + ": " + error.what());
  }
  const std::size_t count = call.count;
  const std::size_t block = count / size_;
  std::byte* const all = static_cast<std::byte*>(buffer);
  std::byte* const own = all + block * rank_ * dag::dtype_bytes(call.dtype);
  const int root = call.root ? static_cast<int>(*call.root) : 0;
  switch (call.kind) {
    case dag::CollectiveKind::allreduce:
      return stream_.launch(
          [&](cudaStream_t s) { return ncclAllReduce(all, all, count, datatype, op, comm_, s); },
          comm_, "ncclAllReduce", context);
    case dag::CollectiveKind::bcast:
      return stream_.launch(
          [&](cudaStream_t s) { return ncclBroadcast(all, all, count, datatype, root, comm_, s); },
          comm_, "ncclBroadcast", context);
    case dag::CollectiveKind::reduce:
      return stream_.launch(
          [&](cudaStream_t s) { return ncclReduce(all, all, count, datatype, op, root, comm_, s); },
          comm_, "ncclReduce", context);
    case dag::CollectiveKind::reduce_scatter:
      return stream_.launch(
          [&](cudaStream_t s) {
            return ncclReduceScatter(all, own, block, datatype, op, comm_, s);
          },
          comm_, "ncclReduceScatter", context);
    case dag::CollectiveKind::allgather:
      return stream_.launch(
          [&](cudaStream_t s) { return ncclAllGather(own, all, block, datatype, comm_, s); }, comm_,
          "ncclAllGather", context);
    case dag::CollectiveKind::gather:
    case dag::CollectiveKind::scatter:
    case dag::CollectiveKind::alltoall:
    case dag::CollectiveKind::scan:
    case dag::CollectiveKind::exscan:
    case dag::CollectiveKind::send:
    case dag::CollectiveKind::recv:
      // NCCL has no such collective, or ordo does not launch it (docs/gpu.md): refused before
      // anything is launched.
      throw std::invalid_argument(context + ": " +
                                  comm::unsupported_reason(Backend::nccl, call.kind));
    case dag::CollectiveKind::barrier:
      break;
  }
  throw std::invalid_argument(context + ": unknown collective kind");
}

void NcclCommunicator::call(const Call& call, void* buffer) { launch(call, buffer)->wait(); }

std::unique_ptr<Request> NcclCommunicator::start(const Call& call, void* buffer) {
  return launch(call, buffer);
}

void NcclCommunicator::call_then(const Call& call, void* buffer, Done done) {
  start_then(call, buffer, std::move(done));
}

void NcclCommunicator::start_then(const Call& call, void* buffer, Done done) {
  std::unique_ptr<NcclRequest> request;
  try {
    request = launch(call, buffer);
  } catch (...) {
    done(std::current_exception());
    return;
  }
  completions_.watch(std::move(request), std::move(done));
}

}  // namespace ordo::comm
