// The detection of the device path, on whatever machine runs it (a GPU or none, CUDA-aware MPI
// or not): it answers without crashing, every rank gets the same path, the answer follows the
// rule from this rank's inputs, and a machine without a GPU answers host.
#include "runtime/device/device_path_detection.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <vector>

#include "runtime/comm/mpi/cuda_aware.hpp"
#include "runtime/device/devices.hpp"
#include "tests/comm/mpi_env.hpp"

namespace ordo::device {
namespace {

using comm::test::runtime;
using comm::test::world;

TEST(DevicePathDetection, AnswersTheSamePathOnEveryRank) {
  const DevicePathReport report = detect_device_path(runtime());
  if (world().rank() == 0) std::printf("%s\n", describe(report).c_str());
  EXPECT_EQ(report.chosen, comm::choose_device_path(report.inputs));
  EXPECT_EQ(report.inputs.visible_gpus, visible_devices());
  EXPECT_GE(report.inputs.ranks_on_node, 1u);
  EXPECT_LE(report.inputs.ranks_on_node, world().size());
  EXPECT_EQ(report.inputs.cuda_aware_mpi, report.cuda_aware.usable());
  if (report.inputs.visible_gpus == 0) {
    EXPECT_EQ(report.chosen, comm::DevicePath::host);
  }
  // Every rank's own choice, and the path it agreed on: the same everywhere, the least capable.
  const int mine[2] = {static_cast<int>(report.chosen), static_cast<int>(report.agreed)};
  std::vector<int> everyone(2 * world().size());
  ASSERT_EQ(MPI_Allgather(mine, 2, MPI_INT, everyone.data(), 2, MPI_INT, MPI_COMM_WORLD),
            MPI_SUCCESS);
  std::vector<comm::DevicePath> choices;
  for (std::size_t r = 0; r < world().size(); ++r) {
    choices.push_back(static_cast<comm::DevicePath>(everyone[2 * r]));
    EXPECT_EQ(everyone[2 * r + 1], mine[1]) << "rank " << r << " agreed on another path";
  }
  EXPECT_EQ(report.agreed, comm::agree_device_path(choices));
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
  const int device = rank_device(runtime());
  EXPECT_GE(device, 0);
  if (visible_devices() > 0) {
    EXPECT_LT(static_cast<std::uint32_t>(device), visible_devices());
  }
}

}  // namespace
}  // namespace ordo::device
