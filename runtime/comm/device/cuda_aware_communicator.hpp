// The MPI backend on device pointers, for an MPI that moves device memory itself (CUDA-aware
// MPI, runtime/comm/mpi/cuda_aware.hpp). It is MpiCommunicator's own calls, with two
// differences. Open MPI's CUDA support covers the blocking collectives only, so the non-blocking
// and callback forms run blocking calls, one at a time in issue order, on a worker thread
// (runtime/comm/staged/ordered_worker.hpp). And a reduce_scatter's result, which MPI leaves at
// the front of the buffer, is moved to this rank's block on the device: MpiCommunicator moves it
// with memmove, which device memory does not take.
#pragma once

#include <memory>

#include "runtime/comm/mpi/communicator.hpp"
#include "runtime/comm/mpi/types.hpp"
#include "runtime/comm/staged/ordered_worker.hpp"
#include "runtime/comm/wrapped_world.hpp"

namespace ordo::comm {

class CudaAwareCommunicator final : public comm::WrappedCommunicator {
 public:
  // `mpi` and `types` (the runtime's) must outlive this object.
  CudaAwareCommunicator(comm::MpiCommunicator& mpi, const comm::MpiTypeTable& types);

  // `buffer` is device memory whose producers have completed. Errors as MpiCommunicator's, and
  // CudaError for the block move of a reduce_scatter.
  void call(const comm::Call& call, void* buffer) override;
  std::unique_ptr<comm::Request> start(const comm::Call& call, void* buffer) override;
  void call_then(const comm::Call& call, void* buffer, Done done) override;
  void start_then(const comm::Call& call, void* buffer, Done done) override;

 private:
  void run(const comm::Call& call, void* buffer);
  void reduce_scatter(const comm::Call& call, void* buffer);

  comm::MpiCommunicator& mpi_;
  const comm::MpiTypeTable& types_;
  comm::OrderedWorker worker_;  // last: stops before the rest goes
};

}  // namespace ordo::comm
