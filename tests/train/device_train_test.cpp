// On a GPU, through a CUDA build of libtorch: a few steps of training with the layers, batches
// and updates on the device (the gradients staged through the KVStore's host buffers) take the
// steps the CPU takes, to float tolerance: the same losses, weights and batch norm statistics on
// two simulated ranks, under a design that reduces in place and under sharded, whose allgather
// writes the weights. TF32 is off and cuDNN deterministic, so the only differences left are
// those of summation order between the CPU's kernels and the GPU's.
#include <ATen/Context.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "runtime/networks/network_builder.hpp"
#include "runtime/train/training_device.hpp"
#include "tests/train/sim_ranks.hpp"

namespace ordo::train {
namespace {

namespace op = networks::op;

networks::Network device_cnn() {
  networks::NetworkBuilder b("device_cnn", {1, 28, 28});
  const auto c1 = b.add("conv1", {}, {op::conv(8, 3, 1, 1), op::batch_norm(), op::relu()});
  const auto p1 = b.add("pool1", {c1}, {op::max_pool(2, 2, 0)});
  const auto c2 = b.add("conv2", {p1}, {op::conv(16, 3, 2, 1), op::batch_norm(), op::relu()});
  const auto gap = b.add("pool2", {c2}, {op::global_avg_pool()});
  const auto fc1 = b.add("fc1", {gap}, {op::dense(32), op::relu()});
  b.add("fc2", {fc1}, {op::dense(10)});
  return b.build(1.0);
}

TEST(DeviceTraining, StepsOnCudaMatchStepsOnTheCpu) {
  // A CPU-only libtorch cannot run this on any GPU: skipped, and ctest says so (not passed).
  if (!at::Context::hasCUDART()) GTEST_SKIP() << *device_unusable(c10::DeviceType::CUDA);
  if (const std::optional<std::string> why = device_unusable(c10::DeviceType::CUDA)) FAIL() << *why;
  at::globalContext().setAllowTF32CuDNN(false);
  at::globalContext().setAllowTF32CuBLAS(false);
  at::globalContext().setDeterministicCuDNN(true);
  at::globalContext().setBenchmarkCuDNN(false);
  const data::LabelledImages train = data::first_examples(fashion(true), 512);
  const data::LabelledImages test = data::first_examples(fashion(false), 500);
  for (const designs::DesignKind kind :
       {designs::DesignKind::depcha, designs::DesignKind::sharded}) {
    designs::DesignConfig config;
    config.kind = kind;
    config.shards = 2;
    config.prefetch = true;
    TrainOptions options;
    options.batch = 32;
    options.steps_max = 6;
    const std::vector<TrainResult> cpu =
        train_on_ranks(device_cnn(), config, train, &test, options, 2);
    options.device = c10::Device(c10::DeviceType::CUDA, 0);
    const std::vector<TrainResult> gpu =
        train_on_ranks(device_cnn(), config, train, &test, options, 2);
    const std::string design(designs::to_string(kind));
    ASSERT_EQ(gpu.size(), 2u);
    for (std::size_t r = 0; r < 2; ++r) {
      ASSERT_EQ(gpu[r].losses.size(), cpu[r].losses.size()) << design;
      for (std::size_t s = 0; s < cpu[r].losses.size(); ++s) {
        EXPECT_NEAR(gpu[r].losses[s], cpu[r].losses[s], 1e-4 + 1e-3 * cpu[r].losses[s])
            << design << ", rank " << r << ", step " << s;
      }
      ASSERT_EQ(gpu[r].weights.size(), cpu[r].weights.size()) << design;
      ASSERT_EQ(gpu[r].buffers.size(), cpu[r].buffers.size()) << design;
      const std::optional<std::size_t> w = first_apart_on_device(gpu[r].weights, cpu[r].weights);
      EXPECT_FALSE(w) << design << ", rank " << r << ": weight " << *w << " is "
                      << gpu[r].weights.at(*w) << " on the GPU, " << cpu[r].weights.at(*w)
                      << " on the CPU";
      const std::optional<std::size_t> b = first_apart_on_device(gpu[r].buffers, cpu[r].buffers);
      EXPECT_FALSE(b) << design << ", rank " << r << ": buffer element " << *b;
      ASSERT_EQ(gpu[r].test_accuracy.size(), 1u) << design;
      EXPECT_NEAR(gpu[r].test_accuracy[0], cpu[r].test_accuracy[0], 0.01) << design;
    }
  }
}

}  // namespace
}  // namespace ordo::train
