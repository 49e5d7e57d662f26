// The World whose communicators carry collectives on device buffers by a given path, over an
// MpiWorld's communicators: what a job builds once it knows its path
// (device_path_detection.hpp).
#pragma once

#include <memory>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/comm/staged/device_path.hpp"
#include "runtime/comm/staged/staged_communicator.hpp"

namespace ordo::comm {

struct DeviceWorldOptions {
  int device = 0;              // this rank's GPU (rank_device())
  comm::StagedOptions staged;  // the staged path's chunks
};

// nccl: an NcclWorld (collective over the world, like MpiWorld's construction); cuda_aware: the
// MPI communicators on device pointers (CudaAwareCommunicator); staged: each MPI communicator
// behind a StagedCommunicator with a CudaStager of its own. Throws std::invalid_argument for
// `host` (there is no device world: the MpiWorld is the world) and for nccl in a build without
// NCCL. `runtime` and `mpi` must outlive the world returned.
std::unique_ptr<comm::World> make_device_world(comm::DevicePath path,
                                               const comm::MpiRuntime& runtime, comm::MpiWorld& mpi,
                                               DeviceWorldOptions options);

}  // namespace ordo::comm
