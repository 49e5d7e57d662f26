#include "runtime/device/device_path_detection.hpp"

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "runtime/comm/mpi/error.hpp"
#include "runtime/device/devices.hpp"

namespace ordo::device {
namespace {

// Set by the build: whether runtime/comm/nccl was built (ORDO_HAVE_NCCL).
#ifndef ORDO_NCCL_BUILT
#define ORDO_NCCL_BUILT 0
#endif
constexpr bool nccl_built = ORDO_NCCL_BUILT != 0;

struct NodePlace {
  std::uint32_t rank = 0;   // among the node's ranks
  std::uint32_t ranks = 1;  // on the node
};

NodePlace node_place() {
  MPI_Comm node = MPI_COMM_NULL;
  comm::check_mpi(
      MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
      "MPI_Comm_split_type");
  int rank = 0;
  int size = 1;
  const int rank_code = MPI_Comm_rank(node, &rank);
  const int size_code = MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
  comm::check_mpi(rank_code, "MPI_Comm_rank");
  comm::check_mpi(size_code, "MPI_Comm_size");
  return NodePlace{static_cast<std::uint32_t>(rank), static_cast<std::uint32_t>(size)};
}

}  // namespace

DevicePathReport detect_device_path(const comm::MpiRuntime& runtime) {
  DevicePathReport report;
  report.cuda_aware = comm::cuda_aware_support(runtime);
  report.inputs.nccl_built = nccl_built;
  report.inputs.visible_gpus = visible_devices();
  report.inputs.ranks_on_node = node_place().ranks;
  report.inputs.cuda_aware_mpi = report.cuda_aware.usable();
  report.chosen = comm::choose_device_path(report.inputs);
  // The enumerators run from the most capable path to the least, so the agreed path is the
  // largest choice: an allreduce of the maximum.
  int mine = static_cast<int>(report.chosen);
  int agreed = mine;
  comm::check_mpi(MPI_Allreduce(&mine, &agreed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD),
                  "MPI_Allreduce");
  report.agreed = static_cast<comm::DevicePath>(agreed);
  const comm::JobDevicePaths own = comm::job_paths_of(report.inputs);
  int offers[3] = {own.gpu ? 1 : 0, own.cuda_aware ? 1 : 0, own.nccl ? 1 : 0};
  comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, offers, 3, MPI_INT, MPI_MIN, MPI_COMM_WORLD),
                  "MPI_Allreduce");
  report.job = {offers[0] != 0, offers[1] != 0, offers[2] != 0};
  return report;
}

int rank_device(const comm::MpiRuntime& runtime) {
  (void)runtime;  // MPI is initialised
  const NodePlace place = node_place();
  const std::uint32_t gpus = visible_devices();
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

}  // namespace ordo::device
