// Whether this MPI moves device memory itself (CUDA-aware MPI), as Open MPI reports it: the
// library's build says so at compile time (MPIX_CUDA_AWARE_SUPPORT in mpi-ext.h) and the library
// in use says so at run time (MPIX_Query_cuda_support()); a library may be built with the
// support and run without it. An MPI without the extension answers neither: unknown.
#pragma once

#include <string>
#include <string_view>

#include "runtime/comm/mpi/runtime.hpp"

namespace ordo::comm {

enum class CudaAwareAnswer { yes, no, unknown };

std::string_view to_string(CudaAwareAnswer answer);  // "yes", "no", "unknown"

struct CudaAwareSupport {
  CudaAwareAnswer compile_time = CudaAwareAnswer::unknown;
  CudaAwareAnswer run_time = CudaAwareAnswer::unknown;
  // Both answers yes: only then may device pointers be handed to MPI.
  bool usable() const {
    return compile_time == CudaAwareAnswer::yes && run_time == CudaAwareAnswer::yes;
  }
};

// Asks after MPI_Init (through `runtime`, which proves it), as Open MPI requires of the run-time
// query. Local: no communication.
CudaAwareSupport cuda_aware_support(const MpiRuntime& runtime);

// "CUDA-aware MPI: compiled yes, at run time no", for reports.
std::string describe(const CudaAwareSupport& support);

}  // namespace ordo::comm
