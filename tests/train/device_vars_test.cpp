// The path `ordo train --device cuda` takes where a device path is there (docs/gpu.md, "Training
// on device gradients"), run on the CPU: the step program's vars in a memory the host may not
// touch, the parameters and gradients views of them, the collectives on them where they are,
// and the compute and copy pools' ops device ops that complete at their queues' markers, the
// copies put on the copy queue by the memory itself. The fake memory's blocks are host memory and CPU tensors view them, and CPU
// kernels give the same bits wherever their operands are, so it must train the very bits the
// plain CPU trainer trains, under every kind of design: in place (depcha), the main thread's
// calls (funnel), buckets copied in and out (fused), and the weights written by a collective
// (sharded's allgather).
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/engine/host_device_queue.hpp"
#include "tests/common/fake_device_memory.hpp"
#include "tests/train/sim_ranks.hpp"

namespace ordo::train {
namespace {

// The host stand-in for a stream, counting the markers recorded on it: the compute ops that ran
// as device ops.
class CountingQueue final : public engine::DeviceQueue {
 public:
  void mark(Reached reached) override {
    ++marks;
    inner_.mark(std::move(reached));
  }
  std::optional<int> gpu() const override { return gpu_index; }
  std::atomic<std::uint64_t> marks{0};
  std::optional<int> gpu_index;  // the GPU it says it orders work on

 private:
  engine::HostDeviceQueue inner_;
};

// One rank's device: its vars' memory, its compute queue and its copy queue.
struct FakeDevice {
  std::shared_ptr<test::FakeDeviceMemory> memory = std::make_shared<test::FakeDeviceMemory>();
  CountingQueue queue;
  engine::HostDeviceQueue copies;
};

TEST(DeviceVars, TrainTheBitsThePlainTrainerTrains) {
  const ShortRun run = short_run();
  for (DesignCase c : design_cases()) {
    c.config.prefetch = true;
    const std::vector<TrainResult> plain =
        train_on_ranks(small_cnn(), c.config, run.train, &run.test, run.options, 2);
    std::vector<std::shared_ptr<FakeDevice>> devices = {std::make_shared<FakeDevice>(),
                                                        std::make_shared<FakeDevice>()};
    const std::vector<TrainResult> placed = train_on_ranks(
        small_cnn(), c.config, run.train, &run.test, run.options, 2,
        [&](dag::Rank r, comm::World& world, TrainOptions& mine) -> std::shared_ptr<void> {
          mine.device_vars =
              DeviceVars{devices[r]->memory, &world, &devices[r]->queue, &devices[r]->copies};
          return devices[r];
        });
    expect_same_training(placed, plain, c.name);
    for (std::size_t r = 0; r < 2; ++r) {
      EXPECT_GT(devices[r]->memory->allocations, 0u) << c.name;
      // Every forward, backward and update of every step went through the queue.
      EXPECT_GE(devices[r]->queue.marks, 6u * 3u) << c.name;
    }
    // Only fused's buckets copy, and on the copy pool's queue.
    const bool copies = c.config.kind == designs::DesignKind::fused;
    EXPECT_EQ(devices[0]->memory->bytes_enqueued > 0, copies) << c.name;
    EXPECT_EQ(devices[0]->memory->bytes_copied, 0u) << c.name;
  }
}

// One step of depcha at one rank with `device`'s vars, the world filled in by each rank where
// `with_world`, else left out: for the refusals, which come before any step.
RankRuns one_step_on(FakeDevice& device, bool with_world, bool staged = false) {
  const data::LabelledImages train = data::first_examples(fashion(true), 64);
  designs::DesignConfig config;
  config.kind = designs::DesignKind::depcha;
  // Value-initialised: g++ 12 at -O2 with ThreadSanitizer otherwise takes the empty optional
  // below for one that may hold an uninitialised shared_ptr (-Wmaybe-uninitialized).
  TrainOptions options{};
  options.batch = 16;
  options.steps_max = 1;
  options.staged = staged;
  options.device_vars = DeviceVars{device.memory, nullptr, &device.queue};
  if (!with_world) return run_on_ranks(small_cnn(), config, train, nullptr, options, 1);
  return run_on_ranks(
      small_cnn(), config, train, nullptr, options, 1,
      [&](dag::Rank, comm::World& world, TrainOptions& mine) -> std::shared_ptr<void> {
        mine.device_vars->world = &world;
        return nullptr;
      });
}

TEST(DeviceVars, AreRefusedHalfGivenOrBesideStagedParameters) {
  FakeDevice device;
  RankRuns half = one_step_on(device, false);
  EXPECT_NE(half.errors[0].find("one is missing"), std::string::npos) << half.errors[0];
  RankRuns staged = one_step_on(device, true, true);
  EXPECT_NE(staged.errors[0].find("exclude each other"), std::string::npos) << staged.errors[0];
}

// Views made on the run's device of vars held by another: a GPU's memory while the run computes
// on the CPU is refused before a step, saying which memory and which device.
TEST(DeviceVars, InAnotherDevicesMemoryAreRefused) {
  FakeDevice device;
  device.memory->gpu_index = 0;
  RankRuns elsewhere = one_step_on(device, true);
  EXPECT_NE(elsewhere.errors[0].find("are in fake device memory, but the run computes on cpu"),
            std::string::npos)
      << elsewhere.errors[0];
  EXPECT_EQ(device.memory->allocations, 0u);
}

// A compute queue of another device than the vars' memory: its markers would not follow the
// kernels on that memory, so the run is refused before a step, naming the queue and both devices.
TEST(DeviceVars, WithAQueueOfAnotherDeviceAreRefused) {
  FakeDevice device;
  device.queue.gpu_index = 0;
  RankRuns elsewhere = one_step_on(device, true);
  EXPECT_NE(elsewhere.errors[0].find("the device vars' compute queue orders work on GPU 0, but "
                                     "their memory is fake device memory"),
            std::string::npos)
      << elsewhere.errors[0];
  EXPECT_EQ(device.memory->allocations, 0u);
  EXPECT_EQ(device.queue.marks.load(), 0u);
}

}  // namespace
}  // namespace ordo::train
