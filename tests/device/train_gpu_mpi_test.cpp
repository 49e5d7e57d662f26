// On a GPU, as an MPI job: the path `ordo train --device cuda` takes where a device path is
// there. The step program's vars are in the rank's GPU memory (DeviceVarMemory), the parameters
// and gradients views of them; the collectives run on them over NCCL (one rank per GPU) or the
// staged path (ranks may share a GPU); copy ops are device-to-device copies; the compute pool's
// ops are device ops marked on libtorch's stream (CudaDeviceQueue on the legacy default stream):
// all of it set up by open_device_gradients, as ordo train sets it up.
// A few steps must match the same steps on the CPU over the MPI world, to float tolerance, under
// a design that reduces in place, one whose main thread issues the calls, one that copies into
// buckets and sharded, whose allgather writes the weights. TF32 is off and cuDNN deterministic.
#include <ATen/Context.h>
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "runtime/comm/staged/device_path.hpp"
#include "runtime/cuda/devices.hpp"
#include "runtime/train/device/device_gradients.hpp"
#include "runtime/train/training_device.hpp"
#include "tests/comm/mpi_env.hpp"
#include "tests/train/sim_ranks.hpp"

namespace ordo::train {
namespace {

using comm::test::runtime;
using comm::test::world;

// The trainer tests' designs, sharded over this job's ranks.
std::vector<designs::DesignConfig> configs() {
  std::vector<designs::DesignConfig> out;
  for (DesignCase c : design_cases()) {
    c.config.shards = world().size();
    c.config.prefetch = true;
    out.push_back(c.config);
  }
  return out;
}

// Every design's steps on the GPU with its vars there and `path` carrying the collectives, set up
// as ordo train sets it up (device_gradients.hpp), against the same steps on the CPU over the
// MPI world.
void expect_cpu_steps(const std::string& path) {
  ASSERT_FALSE(device_unusable(c10::DeviceType::CUDA).has_value())
      << *device_unusable(c10::DeviceType::CUDA);
  at::globalContext().setAllowTF32CuDNN(false);
  at::globalContext().setAllowTF32CuBLAS(false);
  at::globalContext().setDeterministicCuDNN(true);
  at::globalContext().setBenchmarkCuDNN(false);
  int gpu = 0;
  ASSERT_EQ(cudaGetDevice(&gpu), cudaSuccess);
  const c10::Device device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(gpu));
  const DeviceGradients gradients = open_device_gradients(
      runtime(), {dag::Communicator{.name = "world", .members = std::nullopt}}, path, device);
  ASSERT_EQ(comm::to_string(gradients.path), path);
  ASSERT_TRUE(gradients.vars().has_value());
  const data::LabelledImages train = data::first_examples(fashion(true), 512);
  const data::LabelledImages test = data::first_examples(fashion(false), 500);
  for (const designs::DesignConfig& config : configs()) {
    const std::string name = designs::describe(config) + " over " + path;
    TrainOptions options;
    options.batch = 32;
    options.steps_max = 6;
    const TrainResult cpu = train_rank(small_cnn(), config, world(), train, &test, options);
    options.device = device;
    options.device_vars = gradients.vars();
    const TrainResult gpu_run = train_rank(small_cnn(), config, world(), train, &test, options);
    ASSERT_EQ(gpu_run.losses.size(), cpu.losses.size()) << name;
    for (std::size_t s = 0; s < cpu.losses.size(); ++s) {
      EXPECT_NEAR(gpu_run.losses[s], cpu.losses[s], 1e-4 + 1e-3 * cpu.losses[s])
          << name << ", step " << s;
    }
    ASSERT_EQ(gpu_run.weights.size(), cpu.weights.size()) << name;
    const std::optional<std::size_t> w = first_apart_on_device(gpu_run.weights, cpu.weights);
    EXPECT_FALSE(w) << name << ": weight " << *w << " is " << gpu_run.weights.at(*w)
                    << " on the GPU, " << cpu.weights.at(*w) << " on the CPU";
    const std::optional<std::size_t> b = first_apart_on_device(gpu_run.buffers, cpu.buffers);
    EXPECT_FALSE(b) << name << ": buffer element " << *b;
    ASSERT_EQ(gpu_run.test_accuracy.size(), 1u) << name;
    EXPECT_NEAR(gpu_run.test_accuracy[0], cpu.test_accuracy[0], 0.01) << name;
  }
}

class TrainOnDeviceVars : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GT(cuda::visible_devices(), 0u) << "a gpu test ran where no GPU is visible";
    // A CPU-only libtorch cannot run this on any GPU: skipped on every rank alike, and ctest
    // says so (not passed).
    if (!at::Context::hasCUDART()) GTEST_SKIP() << *device_unusable(c10::DeviceType::CUDA);
  }
};

TEST_F(TrainOnDeviceVars, OverTheStagedPathTheStepsAreTheCpusSteps) {
  expect_cpu_steps("staged");
}

#ifdef ORDO_NCCL_BUILT
TEST_F(TrainOnDeviceVars, OverNcclTheStepsAreTheCpusSteps) {
  // NCCL refuses two members of one communicator on one GPU: every rank skips alike.
  if (world().size() > cuda::visible_devices()) {
    GTEST_SKIP() << world().size() << " ranks and " << cuda::visible_devices()
                 << " GPU(s): NCCL needs a GPU per rank";
  }
  expect_cpu_steps("nccl");
}
#endif

}  // namespace
}  // namespace ordo::train
