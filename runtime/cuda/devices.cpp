#include "runtime/cuda/devices.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>

#include "runtime/cuda/cuda_error.hpp"

namespace ordo::cuda {

std::uint32_t visible_devices() {
  int count = 0;
  // No driver (cudaErrorInsufficientDriver) or no device (cudaErrorNoDevice): none visible. The
  // runtime keeps the error as its last one; clear it so that later calls are not blamed.
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count > 0 ? static_cast<std::uint32_t>(count) : 0;
}

std::string describe_device(std::uint32_t device) {
  cudaDeviceProp p{};
  check_cuda(cudaGetDeviceProperties(&p, static_cast<int>(device)), "cudaGetDeviceProperties");
  char text[384];
  std::snprintf(text, sizeof text, "%s, compute capability %d.%d, %.1f GiB", p.name, p.major,
                p.minor, static_cast<double>(p.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0));
  return text;
}

void make_current(int device) {
  int current = 0;
  check_cuda(cudaGetDevice(&current), "cudaGetDevice");
  if (current != device) check_cuda(cudaSetDevice(device), "cudaSetDevice");
}

}  // namespace ordo::cuda
