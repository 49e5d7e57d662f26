#include "runtime/cuda/cuda_error.hpp"

namespace ordo::cuda {

CudaError::CudaError(const std::string& call, cudaError_t code)
    : std::runtime_error(call + " failed: " + cudaGetErrorName(code) + " (" +
                         cudaGetErrorString(code) + ")"),
      code_(code) {}

void check_cuda(cudaError_t code, const char* call) {
  if (code != cudaSuccess) throw CudaError(call, code);
}

}  // namespace ordo::cuda
