#include "runtime/comm/device/device_world.hpp"

#include <stdexcept>
#include <string>

#include "runtime/comm/device/cuda_aware_communicator.hpp"
#include "runtime/comm/device/cuda_stager.hpp"
#include "runtime/comm/wrapped_world.hpp"
#if ORDO_NCCL_BUILT
#include "runtime/comm/nccl/world.hpp"
#endif

namespace ordo::comm {

std::unique_ptr<comm::World> make_device_world(comm::DevicePath path,
                                               const comm::MpiRuntime& runtime, comm::MpiWorld& mpi,
                                               DeviceWorldOptions options) {
  switch (path) {
    case comm::DevicePath::nccl:
#if ORDO_NCCL_BUILT
      return std::make_unique<comm::NcclWorld>(mpi, options.device);
#else
      throw std::invalid_argument("the nccl path needs a build with NCCL; this one has none");
#endif
    case comm::DevicePath::cuda_aware:
      return std::make_unique<comm::WrappedWorld>(
          mpi, [&runtime, &mpi](dag::CommId id, comm::Communicator&) {
            return std::make_unique<CudaAwareCommunicator>(mpi.comm(id), runtime.types());
          });
    case comm::DevicePath::staged:
      return std::make_unique<comm::WrappedWorld>(
          mpi, [&options](dag::CommId, comm::Communicator& inner) {
            return std::make_unique<comm::StagedCommunicator>(
                inner, std::make_unique<CudaStager>(options.device), options.staged);
          });
    case comm::DevicePath::host:
      break;
  }
  throw std::invalid_argument("path '" + std::string(comm::to_string(path)) +
                              "' has no device world: gradients in host memory use the MpiWorld");
}

}  // namespace ordo::comm
