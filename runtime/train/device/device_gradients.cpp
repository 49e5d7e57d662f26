#include "runtime/train/device/device_gradients.hpp"

#include <stdexcept>
#include <string>

#ifdef ORDO_DEVICE_PATHS
#include "runtime/comm/device/device_path_detection.hpp"
#include "runtime/comm/device/device_world.hpp"
#include "runtime/cuda/devices.hpp"
#include "runtime/engine/cuda/cuda_device_queue.hpp"
#include "runtime/exec/device/device_var_memory.hpp"
#endif

namespace ordo::train {

std::optional<DeviceVars> DeviceGradients::vars() const {
  if (world == nullptr) return std::nullopt;
  return DeviceVars{memory, world.get(), compute_queue.get(), copy_queue.get()};
}

DeviceGradients open_device_gradients(const comm::MpiRuntime& runtime,
                                      const std::vector<dag::Communicator>& comms,
                                      std::string_view asked, const c10::Device& device) {
  std::optional<comm::DevicePath> named;
  if (asked != "auto") {
    named = comm::parse_device_path(asked);
    if (!named) {
      throw std::invalid_argument("--comm-path '" + std::string(asked) +
                                  "'; expected auto, nccl, cuda-aware, staged or host");
    }
  }
  DeviceGradients out;
  if (device.is_cpu() || named == comm::DevicePath::host) {
    if (named && *named != comm::DevicePath::host) {
      throw std::invalid_argument("--comm-path " + std::string(asked) +
                                  " carries gradients in GPU memory; it needs --device cuda");
    }
    return out;
  }
#ifdef ORDO_DEVICE_PATHS
  const comm::DevicePathReport report = comm::detect_device_path(runtime);
  out.path = named.value_or(report.agreed);
  if (const std::optional<std::string> why = comm::path_refusal(out.path, report.job)) {
    throw std::invalid_argument("--comm-path " + std::string(asked) + ": " + *why);
  }
  if (out.path == comm::DevicePath::host) return out;
  const int gpu = device.index();
  out.mpi = std::make_unique<comm::MpiWorld>(runtime, comms);
  out.world = comm::make_device_world(out.path, runtime, *out.mpi,
                                      comm::DeviceWorldOptions{gpu, comm::StagedOptions{}});
  out.memory = std::make_shared<exec::DeviceVarMemory>(gpu);
  cuda::make_current(gpu);
  out.compute_queue = std::make_unique<engine::CudaDeviceQueue>(cuda::Stream::LegacyDefault{});
  out.copy_queue = std::make_unique<engine::CudaDeviceQueue>();
  return out;
#else
  (void)runtime;
  (void)comms;
  if (named) {
    throw std::invalid_argument("--comm-path " + std::string(asked) +
                                ": this ordo was built without the CUDA runtime, so its "
                                "gradients can only be staged through host memory (--comm-path "
                                "host); configure with ORDO_CUDA=on where the toolkit is");
  }
  return out;
#endif
}

}  // namespace ordo::train
