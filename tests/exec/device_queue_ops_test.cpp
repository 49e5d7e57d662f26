// The executor's device pools (Executor::use_device_queue): a compute op of such a pool only
// enqueues its work, gives its thread back, and completes when the queue has run that work, so
// an op that reads what it wrote starts only then, even on another pool. The host stand-in for a
// stream runs the work on its own thread, behind a gate the test opens: an executor that
// completed device ops when their function returned would let the reader see the old value.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/engine/host_device_queue.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/executor.hpp"

namespace ordo::exec {
namespace {

class Gate {
 public:
  void open() {
    {
      const std::lock_guard lock(mutex_);
      open_ = true;
    }
    opened_.notify_all();
  }
  void wait() {
    std::unique_lock lock(mutex_);
    opened_.wait(lock, [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

constexpr dag::PoolId device_pool = 0;
constexpr dag::PoolId host_pool = 1;

TEST(ExecutorDeviceQueue, AReaderOnAnotherPoolWaitsForTheQueueNotTheFunction) {
  engine::EngineConfig config;
  config.pools = {{"device", 1, dag::PoolKind::fifo}, {"host", 1, dag::PoolKind::fifo}};
  engine::Engine engine(std::move(config), std::make_unique<engine::ThreadPoolScheduler>());
  comm::sim::SimWorld world(1, {{"world", std::nullopt}});
  engine::HostDeviceQueue queue;
  Gate gate;
  std::atomic<bool> enqueued{false};
  std::atomic<int> seen{-1};
  BodyOptions bodies;
  bodies.compute = [&](dag::Rank, const dag::Op& op, Buffers& buffers) {
    const dag::VarId v = op.name == "write" ? op.writes[0] : op.reads[0];
    std::byte* bytes = buffers.bytes(v).data();
    if (op.name == "write") {
      queue.enqueue([&gate, bytes] {
        gate.wait();
        const int value = 42;
        std::memcpy(bytes, &value, sizeof value);
      });
      enqueued = true;
    } else {
      int value = 0;
      std::memcpy(&value, bytes, sizeof value);
      seen = value;
    }
  };
  Executor executor(engine, world.rank(0), {{"world", std::nullopt}}, bodies);
  executor.use_device_queue(device_pool, queue);
  const dag::VarId v = executor.add_var({"v", dag::VarKind::tensor, 4, dag::DType::i32});
  dag::Op write;
  write.name = "write";
  write.pool = device_pool;
  write.writes = {v};
  dag::Op read;
  read.name = "read";
  read.pool = host_pool;
  read.reads = {v};
  executor.submit(write);
  executor.submit(read);
  while (!enqueued) std::this_thread::yield();
  // Time for an executor that completed the op at its function's return to run the reader.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(seen, -1) << "the reader ran before the queue ran the writer's work";
  gate.open();
  executor.wait_for_all();
  EXPECT_EQ(seen, 42);
  executor.main_done();
}

TEST(ExecutorDeviceQueue, APoolTakesOneQueue) {
  engine::EngineConfig config;
  config.pools = {{"device", 1, dag::PoolKind::fifo}};
  engine::Engine engine(std::move(config), std::make_unique<engine::ThreadPoolScheduler>());
  comm::sim::SimWorld world(1, {{"world", std::nullopt}});
  engine::HostDeviceQueue queue;
  Executor executor(engine, world.rank(0), {{"world", std::nullopt}}, {});
  executor.use_device_queue(device_pool, queue);
  EXPECT_THROW(executor.use_device_queue(device_pool, queue), std::invalid_argument);
  executor.main_done();
}

}  // namespace
}  // namespace ordo::exec
