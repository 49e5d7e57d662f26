// One throughput measurement's settings, shared by the two ways of training that are compared.
#pragma once

#include <c10/core/Device.h>

#include <cstdint>
#include <string>

#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::bench {

struct ThroughputRun {
  const networks::Network* network = nullptr;
  std::uint32_t classes = 1000;  // the network's
  c10::Device device = c10::Device(c10::DeviceType::CPU);
  std::uint32_t batch = 32;
  std::uint32_t warmup = 2;  // steps run first and not timed (allocation, cuDNN's choices)
  std::uint32_t steps = 10;  // steps timed
  std::uint64_t seed = 1;
  // On a GPU, the trainer's --comm-path (runtime/train/device/device_gradients.hpp), over `mpi` (a
  // world of one): "auto" puts its vars in GPU memory, as ordo train does; "host" stages its
  // gradients.
  std::string comm_path = "auto";
  const comm::MpiRuntime* mpi = nullptr;  // set on a GPU only
};

// Images per second over the timed steps, from the end of the last warm-up step to the end of
// the last step, with the device drained at both ends.
double trainer_images_per_s(const ThroughputRun& run);
double plain_loop_images_per_s(const ThroughputRun& run);

// Returns once the device has run everything enqueued (nothing to wait for on the CPU): the
// kernels a step enqueued are part of its time.
void wait_for_device(const c10::Device& device);

}  // namespace ordo::bench
