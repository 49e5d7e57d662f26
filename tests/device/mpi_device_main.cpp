// The main of the device tests that run as MPI jobs, at any number of ranks from 1: the rank's
// GPU made current first (its rank on the node, modulo the GPUs it sees) where there is one.
#include <cuda_runtime_api.h>

#include "runtime/comm/device/device_path_detection.hpp"
#include "runtime/cuda/cuda_error.hpp"
#include "runtime/cuda/devices.hpp"
#include "tests/comm/mpi_test_run.hpp"

int main(int argc, char** argv) {
  ordo::comm::test::MpiTestRun run;
  run.what = "the device tests";
  run.before = [](const ordo::comm::MpiRuntime& runtime) {
    const int device = ordo::comm::rank_device(runtime);
    if (ordo::cuda::visible_devices() > 0) {
      ordo::cuda::check_cuda(cudaSetDevice(device), "cudaSetDevice");
    }
  };
  return ordo::comm::test::run_mpi_tests(argc, argv, run);
}
