// The main of the device tests that run as MPI jobs, at any number of ranks from 1: like
// tests/comm/mpi_main.cpp, with the rank's GPU made current first (its rank on the node, modulo
// the GPUs it sees) where there is one. A failure on any rank fails every rank's exit status.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <exception>
#include <memory>

#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/device/cuda_error.hpp"
#include "runtime/device/device_path_detection.hpp"
#include "runtime/device/devices.hpp"
#include "tests/comm/mpi_env.hpp"

namespace {

// Ranks other than 0 print only their failures, tagged with the rank.
class FailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit FailurePrinter(ordo::dag::Rank rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %u] %s:%d: Failure\n%s\n", rank_,
                 result.file_name() != nullptr ? result.file_name() : "?", result.line_number(),
                 result.message());
  }

 private:
  ordo::dag::Rank rank_;
};

int run_tests(const ordo::comm::MpiRuntime& runtime) {
  ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (runtime.world_rank() != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailurePrinter(runtime.world_rank()));
  }
  const int device = ordo::device::rank_device(runtime);
  if (ordo::device::visible_devices() > 0) {
    ordo::device::check_cuda(cudaSetDevice(device), "cudaSetDevice");
  }
  ordo::comm::MpiWorld world(runtime,
                             {ordo::dag::Communicator{.name = "world", .members = std::nullopt}});
  ordo::comm::test::install(&runtime, &world);
  const int result = RUN_ALL_TESTS();
  ordo::comm::test::install(nullptr, nullptr);
  return result == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::unique_ptr<ordo::comm::MpiRuntime> runtime;
  try {
    runtime = std::make_unique<ordo::comm::MpiRuntime>(&argc, &argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "cannot start MPI: %s\n", error.what());
    return 1;
  }
  ::testing::InitGoogleTest(&argc, argv);
  int failed = 1;
  try {
    failed = run_tests(*runtime);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "[rank %u] %s\n", runtime->world_rank(), error.what());
  }
  int failed_anywhere = 1;
  if (MPI_Allreduce(&failed, &failed_anywhere, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) !=
      MPI_SUCCESS) {
    failed_anywhere = 1;
  }
  if (runtime->world_rank() == 0 && failed_anywhere != 0) {
    std::fprintf(stderr, "the device tests failed on at least one rank\n");
  }
  return failed_anywhere;
}
