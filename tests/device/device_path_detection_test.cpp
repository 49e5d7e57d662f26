// The detection of the device path, on whatever machine runs it (a GPU or none, CUDA-aware MPI
// or not): it answers without crashing, every rank gets the same path, the answer follows the
// rule from this rank's inputs, and a machine without a GPU answers host.
#include "runtime/comm/device/device_path_detection.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <vector>

#include "runtime/comm/mpi/cuda_aware.hpp"
#include "runtime/cuda/devices.hpp"
#include "tests/comm/mpi_env.hpp"

namespace ordo::cuda {
namespace {

using comm::test::runtime;
using comm::test::world;

TEST(DevicePathDetection, AnswersTheSamePathOnEveryRank) {
  const comm::DevicePathReport report = comm::detect_device_path(runtime());
  if (world().rank() == 0) std::printf("%s\n", describe(report).c_str());
  EXPECT_EQ(report.chosen, comm::choose_device_path(report.inputs));
  EXPECT_EQ(report.inputs.visible_gpus, visible_devices());
  EXPECT_GE(report.inputs.ranks_on_node, 1u);
  EXPECT_LE(report.inputs.ranks_on_node, world().size());
  EXPECT_EQ(report.inputs.cuda_aware_mpi, report.cuda_aware.usable());
  if (report.inputs.visible_gpus == 0) {
    EXPECT_EQ(report.chosen, comm::DevicePath::host);
  }
  // Every rank's offers, and the path it agreed on: the same everywhere, the most capable that
  // every rank can take.
  const comm::JobDevicePaths own = comm::job_paths_of(report.inputs);
  const int mine[4] = {own.gpu ? 1 : 0, own.cuda_aware ? 1 : 0, own.nccl ? 1 : 0,
                       static_cast<int>(report.agreed)};
  std::vector<int> everyone(4 * world().size());
  ASSERT_EQ(MPI_Allgather(mine, 4, MPI_INT, everyone.data(), 4, MPI_INT, MPI_COMM_WORLD),
            MPI_SUCCESS);
  comm::JobDevicePaths job{true, true, true};
  for (std::size_t r = 0; r < world().size(); ++r) {
    job.gpu = job.gpu && everyone[4 * r] != 0;
    job.cuda_aware = job.cuda_aware && everyone[4 * r + 1] != 0;
    job.nccl = job.nccl && everyone[4 * r + 2] != 0;
    EXPECT_EQ(everyone[4 * r + 3], mine[3]) << "rank " << r << " agreed on another path";
  }
  EXPECT_EQ(report.job.gpu, job.gpu);
  EXPECT_EQ(report.job.cuda_aware, job.cuda_aware);
  EXPECT_EQ(report.job.nccl, job.nccl);
  EXPECT_EQ(report.agreed, comm::job_device_path(job));
}

TEST(DevicePathDetection, CudaAwareAnswersAreStable) {
  const comm::CudaAwareSupport first = comm::cuda_aware_support(runtime());
  const comm::CudaAwareSupport second = comm::cuda_aware_support(runtime());
  EXPECT_EQ(first.compile_time, second.compile_time);
  EXPECT_EQ(first.run_time, second.run_time);
  // Without the extension there is no run-time question to ask either.
  if (first.compile_time == comm::CudaAwareAnswer::unknown) {
    EXPECT_EQ(first.run_time, comm::CudaAwareAnswer::unknown);
  }
  EXPECT_NE(comm::describe(first).find("CUDA-aware MPI: compiled "), std::string::npos);
}

TEST(DevicePathDetection, EachRankGetsAVisibleDevice) {
  const int device = comm::rank_device(runtime());
  EXPECT_GE(device, 0);
  if (visible_devices() > 0) {
    EXPECT_LT(static_cast<std::uint32_t>(device), visible_devices());
  }
}

}  // namespace
}  // namespace ordo::cuda
