// What this machine and this MPI offer for collectives on device buffers, gathered on every rank
// and turned into the job's one path by the rule in runtime/comm/staged/device_path.hpp.
#pragma once

#include <string>

#include "runtime/comm/mpi/cuda_aware.hpp"
#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/staged/device_path.hpp"

namespace ordo::comm {

struct DevicePathReport {
  comm::DevicePathInputs inputs;  // this rank's
  comm::CudaAwareSupport cuda_aware;
  comm::DevicePath chosen = comm::DevicePath::host;  // from this rank's inputs alone
  comm::DevicePath agreed = comm::DevicePath::host;  // the job's, the same on every rank
  comm::JobDevicePaths job;  // what every rank offers, the same on every rank
};

// Collective over MPI_COMM_WORLD (every rank calls it at the same point): the GPUs this rank
// sees, the ranks on its node (MPI_Comm_split_type, shared memory), whether ordo was built with
// NCCL, and MPI's CUDA-aware answers; then every rank's choice, agreed on. Without a driver or a
// GPU the answer is `host`, not an error.
DevicePathReport detect_device_path(const comm::MpiRuntime& runtime);

// The GPU this rank should use: its rank among its node's ranks, modulo the GPUs it sees (0 when
// it sees none). Collective over MPI_COMM_WORLD.
int rank_device(const comm::MpiRuntime& runtime);

// Several lines for logs: the inputs, both CUDA-aware answers, the choice and the agreed path.
std::string describe(const DevicePathReport& report);

}  // namespace ordo::comm
