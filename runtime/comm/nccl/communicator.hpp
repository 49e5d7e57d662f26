// One rank's handle on one NCCL communicator: the Communicator interface over ncclAllReduce,
// ncclBroadcast, ncclReduce, ncclReduceScatter and ncclAllGather on device buffers, launched on
// the rank's one NCCL stream (launch_stream.hpp).
#pragma once

#include <nccl.h>

#include <cstdint>
#include <memory>
#include <string>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/nccl/completions.hpp"
#include "runtime/comm/nccl/launch_stream.hpp"
#include "runtime/comm/nccl/request.hpp"
#include "runtime/cuda/device_buffer.hpp"

namespace ordo::comm {

// Every collective is a launch: it is enqueued on the stream and the call returns, except that
// call() then waits for it. Every kind is in place, with ordo's block layout (docs/comm.md):
//   allreduce       ncclAllReduce(buffer, buffer)
//   bcast           ncclBroadcast(buffer, buffer)
//   reduce          ncclReduce(buffer, buffer): NCCL writes the root's only
//   reduce_scatter  ncclReduceScatter(buffer, own block), NCCL's in-place form, which leaves the
//                   result in this rank's own block exactly as ordo's convention wants
//   allgather       ncclAllGather(own block, buffer), NCCL's in-place form
//   barrier         a one-element i32 allreduce on a scratch word of this communicator: NCCL has
//                   no barrier, and skips a collective of zero elements entirely, so a zero-byte
//                   allreduce would synchronise nothing.
// Counts are size_t in NCCL: no chunking.
class NcclCommunicator final : public Communicator {
 public:
  // Takes ownership of `comm` (destroyed with this object, which must happen once nothing is in
  // flight on it). `stream` and `completions` are the world's and must outlive this object.
  NcclCommunicator(ncclComm_t comm, std::string name, dag::Rank rank, std::uint32_t size,
                   NcclLaunchStream& stream, NcclCompletions& completions);
  ~NcclCommunicator() override;
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  const std::string& name() const override { return name_; }
  dag::Rank rank() const override { return rank_; }
  std::uint32_t size() const override { return size_; }

  // `buffer` is device memory on the world's device, whose producers have completed (or were
  // enqueued on the launch stream before). check_call's checks and an unsupported dtype or
  // reduction throw std::invalid_argument before anything is launched; NCCL's refusals throw
  // NcclError naming the NCCL call, the collective and this communicator.
  void call(const Call& call, void* buffer) override;
  std::unique_ptr<Request> start(const Call& call, void* buffer) override;
  // Both launch and return; `done` runs on the world's completion thread once the event has
  // passed. A launch that fails gives `done` its error at once, on the caller's thread.
  void call_then(const Call& call, void* buffer, Done done) override;
  void start_then(const Call& call, void* buffer, Done done) override;

  // The underlying communicator, for direct NCCL use alongside ordo's calls (benchmarks).
  ncclComm_t handle() const { return comm_; }

 private:
  void check(const Call& call, const void* buffer) const;
  std::unique_ptr<NcclRequest> launch(const Call& call, void* buffer);

  ncclComm_t comm_;
  std::string name_;
  dag::Rank rank_;
  std::uint32_t size_;
  NcclLaunchStream& stream_;
  NcclCompletions& completions_;
  cuda::DeviceBuffer barrier_word_;
};

}  // namespace ordo::comm
