#include "runtime/train/training_device.hpp"

#include <ATen/Context.h>
#include <c10/core/impl/VirtualGuardImpl.h>
#include <torch/cuda.h>

namespace ordo::train {

std::optional<c10::DeviceType> parse_device_type(std::string_view name) {
  if (name == "cpu") return c10::DeviceType::CPU;
  if (name == "cuda") return c10::DeviceType::CUDA;
  return std::nullopt;
}

std::optional<std::string> device_unusable(c10::DeviceType type) {
  if (type == c10::DeviceType::CPU) return std::nullopt;
  if (type != c10::DeviceType::CUDA) return "the trainer runs on the CPU or a CUDA GPU only";
  // libtorch's CUDA part registers itself when its library loads; without it no tensor can go
  // to a GPU, whatever the machine has.
  if (!at::Context::hasCUDART()) {
    return "--device cuda: the libtorch this trainer was built against has no CUDA (a CPU-only "
           "build, such as Debian's libtorch), so it cannot put a tensor on a GPU. Build ordo "
           "against a CUDA build of libtorch (put its directory on CMAKE_PREFIX_PATH and "
           "configure again), or train with --device cpu.";
  }
  if (torch::cuda::device_count() == 0) {
    return "--device cuda: libtorch has CUDA but sees no GPU (no NVIDIA driver, no device, or "
           "CUDA_VISIBLE_DEVICES hides them all). Run on a machine whose GPU nvidia-smi -L "
           "lists, or train with --device cpu.";
  }
  return std::nullopt;
}

c10::Device training_device(c10::DeviceType type, std::uint32_t local_rank) {
  if (type != c10::DeviceType::CUDA) return c10::Device(type);
  const auto count = static_cast<std::uint32_t>(torch::cuda::device_count());
  return c10::Device(type, static_cast<c10::DeviceIndex>(count == 0 ? 0 : local_rank % count));
}

void wait_for_stream(const c10::Device& device) {
  if (device.is_cpu()) return;
  const c10::impl::VirtualGuardImpl guard(device.type());
  guard.getStream(device).synchronize();
}

bool on_default_stream(const c10::Device& device) {
  if (device.is_cpu()) return true;
  const c10::impl::VirtualGuardImpl guard(device.type());
  return guard.getStream(device).id() == 0;
}

}  // namespace ordo::train
