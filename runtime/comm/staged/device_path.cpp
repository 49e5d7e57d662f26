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

DevicePath choose_device_path(const DevicePathInputs& inputs) {
  if (inputs.visible_gpus == 0) return DevicePath::host;
  if (inputs.nccl_built && inputs.ranks_on_node <= inputs.visible_gpus) return DevicePath::nccl;
  if (inputs.cuda_aware_mpi) return DevicePath::cuda_aware;
  return DevicePath::staged;
}

DevicePath agree_device_path(const std::vector<DevicePath>& choices) {
  assert(!choices.empty());
  // The enumerators are listed from the most capable path to the least.
  return *std::max_element(choices.begin(), choices.end());
}

}  // namespace ordo::comm
