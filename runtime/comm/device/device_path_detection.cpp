#include "runtime/comm/device/device_path_detection.hpp"

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "runtime/comm/mpi/error.hpp"
#include "runtime/comm/mpi/node_layout.hpp"
#include "runtime/cuda/devices.hpp"

namespace ordo::comm {
namespace {

// Set by the build: whether runtime/comm/nccl was built (ORDO_HAVE_NCCL).
#ifndef ORDO_NCCL_BUILT
#define ORDO_NCCL_BUILT 0
#endif
constexpr bool nccl_built = ORDO_NCCL_BUILT != 0;

}  // namespace

DevicePathReport detect_device_path(const comm::MpiRuntime& runtime) {
  DevicePathReport report;
  report.cuda_aware = comm::cuda_aware_support(runtime);
  report.inputs.nccl_built = nccl_built;
  report.inputs.visible_gpus = cuda::visible_devices();
  report.inputs.ranks_on_node = comm::node_place(runtime).ranks;
  report.inputs.cuda_aware_mpi = report.cuda_aware.usable();
  report.chosen = comm::choose_device_path(report.inputs);
  // What every rank offers: the least of each offer over the ranks, an allreduce of the minimum.
  const comm::JobDevicePaths own = comm::job_paths_of(report.inputs);
  int offers[3] = {own.gpu ? 1 : 0, own.cuda_aware ? 1 : 0, own.nccl ? 1 : 0};
  comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, offers, 3, MPI_INT, MPI_MIN, MPI_COMM_WORLD),
                  "MPI_Allreduce");
  report.job = {offers[0] != 0, offers[1] != 0, offers[2] != 0};
  report.agreed = comm::job_device_path(report.job);
  return report;
}

int rank_device(const comm::MpiRuntime& runtime) {
  const comm::NodePlace place = comm::node_place(runtime);
  const std::uint32_t gpus = cuda::visible_devices();
  return gpus == 0 ? 0 : static_cast<int>(place.rank % gpus);
}

std::string describe(const DevicePathReport& report) {
  const comm::DevicePathInputs& in = report.inputs;
  return "NCCL built: " + std::string(in.nccl_built ? "yes" : "no") +
         "\nGPUs visible: " + std::to_string(in.visible_gpus) +
         "\nranks on this node: " + std::to_string(in.ranks_on_node) + "\n" +
         comm::describe(report.cuda_aware) +
         "\nthis rank's choice: " + std::string(comm::to_string(report.chosen)) +
         "\nthe job's path: " + std::string(comm::to_string(report.agreed));
}

}  // namespace ordo::comm
