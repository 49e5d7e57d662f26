#include <torch/cuda.h>

#include "bench/resnet50_throughput/throughput_run.hpp"

namespace ordo::bench {

void wait_for_device(const c10::Device& device) {
  if (device.is_cuda()) torch::cuda::synchronize(device.index());
}

}  // namespace ordo::bench
