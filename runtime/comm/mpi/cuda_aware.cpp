#include "runtime/comm/mpi/cuda_aware.hpp"

#include <mpi.h>

// Open MPI declares its extensions, CUDA's among them, in mpi-ext.h; other MPIs may not have it.
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

namespace ordo::comm {

std::string_view to_string(CudaAwareAnswer answer) {
  switch (answer) {
    case CudaAwareAnswer::yes:
      return "yes";
    case CudaAwareAnswer::no:
      return "no";
    case CudaAwareAnswer::unknown:
      return "unknown";
  }
  return "?";
}

CudaAwareSupport cuda_aware_support(const MpiRuntime& runtime) {
  (void)runtime;  // its existence is the point: MPI is initialised
  CudaAwareSupport support;
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  support.compile_time = MPIX_CUDA_AWARE_SUPPORT ? CudaAwareAnswer::yes : CudaAwareAnswer::no;
  support.run_time = MPIX_Query_cuda_support() == 1 ? CudaAwareAnswer::yes : CudaAwareAnswer::no;
#endif
  return support;
}

std::string describe(const CudaAwareSupport& support) {
  return "CUDA-aware MPI: compiled " + std::string(to_string(support.compile_time)) +
         ", at run time " + std::string(to_string(support.run_time));
}

}  // namespace ordo::comm
