#include "runtime/comm/staged/device_path.hpp"

#include <algorithm>
#include <cassert>

namespace ordo::comm {

std::string_view to_string(DevicePath path) {
  switch (path) {
    case DevicePath::nccl:
      return "nccl";
    case DevicePath::cuda_aware:
      return "cuda-aware";
    case DevicePath::staged:
      return "staged";
    case DevicePath::host:
      return "host";
  }
  return "?";
}

std::optional<DevicePath> parse_device_path(std::string_view name) {
  for (const DevicePath p :
       {DevicePath::nccl, DevicePath::cuda_aware, DevicePath::staged, DevicePath::host}) {
    if (name == to_string(p)) return p;
  }
  return std::nullopt;
}

DevicePath choose_device_path(const DevicePathInputs& inputs) {
  if (inputs.visible_gpus == 0) return DevicePath::host;
  if (inputs.nccl_built && inputs.ranks_on_node <= inputs.visible_gpus) return DevicePath::nccl;
  if (inputs.cuda_aware_mpi) return DevicePath::cuda_aware;
  return DevicePath::staged;
}

JobDevicePaths job_paths_of(const DevicePathInputs& inputs) {
  return {inputs.visible_gpus > 0, inputs.visible_gpus > 0 && inputs.cuda_aware_mpi,
          choose_device_path(inputs) == DevicePath::nccl};
}

std::optional<std::string> path_refusal(DevicePath path, const JobDevicePaths& job) {
  const std::string name(to_string(path));
  switch (path) {
    case DevicePath::host:
      return std::nullopt;
    case DevicePath::staged:
      if (job.gpu) return std::nullopt;
      return "the " + name + " path needs a GPU on every rank, and a rank sees none";
    case DevicePath::cuda_aware:
      if (job.cuda_aware) return std::nullopt;
      return "the " + name + " path needs a GPU and an MPI that reports CUDA support, at build "
             "and at run time, on every rank; a rank lacks one (Debian's Open MPI is not "
             "CUDA-aware)";
    case DevicePath::nccl:
      if (job.nccl) return std::nullopt;
      return "the " + name + " path needs ordo built with NCCL and a GPU for each rank of a node "
             "(NCCL refuses two ranks of a communicator on one GPU) on every rank; a rank lacks "
             "one";
  }
  return "unknown device path";
}

DevicePath job_device_path(const JobDevicePaths& job) {
  for (const DevicePath p : {DevicePath::nccl, DevicePath::cuda_aware, DevicePath::staged}) {
    if (!path_refusal(p, job)) return p;
  }
  return DevicePath::host;
}

}  // namespace ordo::comm
