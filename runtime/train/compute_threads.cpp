#include "runtime/train/compute_threads.hpp"

#include <ATen/Parallel.h>
#include <dlfcn.h>

#include <algorithm>
#include <thread>

namespace ordo::train {

std::uint32_t default_compute_threads(std::uint32_t local_ranks) {
  const std::uint32_t cores = std::max(1u, std::thread::hardware_concurrency());
  return std::max(1u, cores / std::max(1u, local_ranks));
}

void set_compute_threads(std::uint32_t threads) {
  const int n = static_cast<int>(std::max(1u, threads));
  at::set_num_threads(n);
  // Looked up, not linked: the BLAS is whichever the system's alternative names, and only
  // OpenBLAS has this call. Its threads serve one GEMM at a time and ignore libtorch's setting.
  using SetThreads = void (*)(int);
  if (void* f = ::dlsym(RTLD_DEFAULT, "openblas_set_num_threads")) {
    reinterpret_cast<SetThreads>(f)(n);
  }
}

}  // namespace ordo::train
