// The choice among the device paths, as a pure function: no GPU means host; NCCL wherever it is
// built and every rank of the node has a GPU of its own; else CUDA-aware MPI where MPI reports
// it; else staged. The job agrees on the least capable choice of any rank.
#include "runtime/comm/staged/device_path.hpp"

#include <gtest/gtest.h>

namespace ordo::comm {
namespace {

DevicePathInputs inputs(bool nccl, std::uint32_t gpus, std::uint32_t ranks, bool cuda_aware) {
  return DevicePathInputs{nccl, gpus, ranks, cuda_aware};
}

TEST(DevicePath, NoGpuIsHostWhateverElseThereIs) {
  EXPECT_EQ(choose_device_path(inputs(true, 0, 1, true)), DevicePath::host);
  EXPECT_EQ(choose_device_path(inputs(false, 0, 4, false)), DevicePath::host);
}

TEST(DevicePath, NcclNeedsABuildWithItAndAGpuForEveryRankOfTheNode) {
  EXPECT_EQ(choose_device_path(inputs(true, 1, 1, false)), DevicePath::nccl);
  EXPECT_EQ(choose_device_path(inputs(true, 8, 8, true)), DevicePath::nccl);
  EXPECT_EQ(choose_device_path(inputs(true, 8, 4, false)), DevicePath::nccl);
  // Two ranks would share a GPU, which NCCL refuses within one communicator.
  EXPECT_EQ(choose_device_path(inputs(true, 1, 2, false)), DevicePath::staged);
  EXPECT_EQ(choose_device_path(inputs(true, 4, 8, true)), DevicePath::cuda_aware);
  EXPECT_EQ(choose_device_path(inputs(false, 8, 8, false)), DevicePath::staged);
}

TEST(DevicePath, CudaAwareMpiBeforeStaging) {
  EXPECT_EQ(choose_device_path(inputs(false, 1, 1, true)), DevicePath::cuda_aware);
  EXPECT_EQ(choose_device_path(inputs(false, 1, 1, false)), DevicePath::staged);
}

// The job takes the most capable path every rank can take, which is not always the least
// capable of the ranks' own choices.
TEST(DevicePath, TheJobTakesTheBestPathEveryRankCanTake) {
  EXPECT_EQ(job_device_path(job_paths_of(inputs(true, 1, 1, false))), DevicePath::nccl);
  EXPECT_EQ(job_device_path(job_paths_of(inputs(true, 1, 2, true))), DevicePath::cuda_aware);
  EXPECT_EQ(job_device_path(job_paths_of(inputs(true, 1, 2, false))), DevicePath::staged);
  EXPECT_EQ(job_device_path(job_paths_of(inputs(true, 0, 1, true))), DevicePath::host);
  // Rank A chooses cuda-aware; rank B, NCCL built and a GPU to itself but MPI not CUDA-aware,
  // chooses nccl. The least capable choice, cuda-aware, is one B cannot take: staged it is.
  const JobDevicePaths a = job_paths_of(inputs(false, 1, 1, true));
  const JobDevicePaths b = job_paths_of(inputs(true, 1, 1, false));
  ASSERT_EQ(choose_device_path(inputs(false, 1, 1, true)), DevicePath::cuda_aware);
  ASSERT_EQ(choose_device_path(inputs(true, 1, 1, false)), DevicePath::nccl);
  const JobDevicePaths both{a.gpu && b.gpu, a.cuda_aware && b.cuda_aware, a.nccl && b.nccl};
  EXPECT_EQ(job_device_path(both), DevicePath::staged);
  // One rank without a GPU: host for all.
  const JobDevicePaths none = job_paths_of(inputs(true, 0, 1, true));
  const JobDevicePaths mixed{b.gpu && none.gpu, b.cuda_aware && none.cuda_aware,
                             b.nccl && none.nccl};
  EXPECT_EQ(job_device_path(mixed), DevicePath::host);
}

TEST(DevicePath, Names) {
  EXPECT_EQ(to_string(DevicePath::nccl), "nccl");
  EXPECT_EQ(to_string(DevicePath::cuda_aware), "cuda-aware");
  EXPECT_EQ(to_string(DevicePath::staged), "staged");
  EXPECT_EQ(to_string(DevicePath::host), "host");
  for (const DevicePath p :
       {DevicePath::nccl, DevicePath::cuda_aware, DevicePath::staged, DevicePath::host}) {
    EXPECT_EQ(parse_device_path(to_string(p)), p);
  }
  EXPECT_EQ(parse_device_path("cuda_aware"), std::nullopt);
  EXPECT_EQ(parse_device_path(""), std::nullopt);
}

// A path the user names is taken only where every rank can take it.
TEST(DevicePath, ANamedPathIsTakenOnlyWhereEveryRankCan) {
  const JobDevicePaths none = job_paths_of(inputs(true, 0, 1, true));
  EXPECT_EQ(path_refusal(DevicePath::host, none), std::nullopt);
  for (const DevicePath p : {DevicePath::staged, DevicePath::cuda_aware, DevicePath::nccl}) {
    ASSERT_TRUE(path_refusal(p, none).has_value()) << to_string(p);
    EXPECT_NE(path_refusal(p, none)->find(to_string(p)), std::string::npos) << *path_refusal(p, none);
  }
  // Two ranks sharing one GPU, MPI not CUDA-aware: staged only.
  const JobDevicePaths shared = job_paths_of(inputs(true, 1, 2, false));
  EXPECT_EQ(path_refusal(DevicePath::staged, shared), std::nullopt);
  EXPECT_NE(path_refusal(DevicePath::cuda_aware, shared)->find("CUDA support"), std::string::npos);
  EXPECT_NE(path_refusal(DevicePath::nccl, shared)->find("NCCL refuses"), std::string::npos);
  // A GPU a rank, NCCL built and CUDA-aware MPI: every path.
  const JobDevicePaths all = job_paths_of(inputs(true, 4, 4, true));
  for (const DevicePath p :
       {DevicePath::nccl, DevicePath::cuda_aware, DevicePath::staged, DevicePath::host}) {
    EXPECT_EQ(path_refusal(p, all), std::nullopt) << to_string(p);
  }
  // The job's offers are the least over the ranks: one rank without NCCL's conditions stops it.
  JobDevicePaths job = all;
  job.nccl = all.nccl && shared.nccl;
  EXPECT_TRUE(path_refusal(DevicePath::nccl, job).has_value());
}

}  // namespace
}  // namespace ordo::comm
