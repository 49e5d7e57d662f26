// CUDA runtime calls return an error code; ordo turns a failed one into an exception that names
// the call and the runtime's own words for the error.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace ordo::cuda {

class CudaError : public std::runtime_error {
 public:
  CudaError(const std::string& call, cudaError_t code);
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

// Throws CudaError when `code` is not cudaSuccess.
void check_cuda(cudaError_t code, const char* call);

}  // namespace ordo::cuda
