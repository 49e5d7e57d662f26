// An executor's vars placed by a VarMemory the host may not touch, on simulated ranks: a fake
// "device" whose blocks are host memory underneath, so the simulated world can still reduce
// through the pointers it is handed (as NCCL would on a GPU), and whose own copy counts what it
// moves. Copy ops must go through that copy, and everything that reads or writes a var on the
// host must refuse it. The test itself reads the sums through bytes(), knowing what the fake is.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/engine/host_device_queue.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/exec/var_memory.hpp"
#include "runtime/kvstore/kvstore.hpp"
#include "tests/common/fake_device_memory.hpp"

namespace ordo::kvstore {
namespace {

using test::FakeDeviceMemory;

// The var's bytes as floats: legal here only because the fake's blocks are host memory.
std::vector<float> peek(exec::Executor& executor, dag::VarId var) {
  const std::span<const std::byte> b = std::as_const(executor.buffers()).bytes(var);
  std::vector<float> out(b.size() / sizeof(float));
  std::memcpy(out.data(), b.data(), b.size());
  return out;
}

void poke(exec::Executor& executor, dag::VarId var, const std::vector<float>& values) {
  const std::span<std::byte> b = executor.buffers().bytes(var);
  ASSERT_EQ(b.size(), values.size() * sizeof(float));
  std::memcpy(b.data(), values.data(), b.size());
}

// What an error says, or "" when `body` does not throw std::invalid_argument.
std::string refusal(const std::function<void()>& body) {
  try {
    body();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

engine::EngineConfig engine_config(const designs::DesignConfig& config) {
  engine::EngineConfig c;
  c.pools = designs::step_pools(config);
  return c;
}

constexpr std::uint32_t ranks = 3;

// Runs `body` as every rank's main thread, each with its own engine, an executor whose vars are
// in fake device memory, and a store.
// Returns the bytes the ranks' memories copied.
std::uint64_t on_every_rank(const designs::DesignConfig& config,
                   const std::function<void(dag::Rank, exec::Executor&, KVStore&)>& body) {
  comm::sim::SimWorld world(ranks, designs::step_comms(config));
  std::atomic<std::uint64_t> copied{0};
  std::vector<std::string> errors(ranks);
  std::vector<std::thread> threads;
  for (dag::Rank r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      try {
        engine::Engine engine(engine_config(config),
                              std::make_unique<engine::ThreadPoolScheduler>());
        auto memory = std::make_shared<FakeDeviceMemory>();
        exec::Executor executor(engine, world.rank(r), designs::step_comms(config), {}, memory);
        auto store = KVStore::create(to_string(config.kind), executor, world.rank(r), config);
        body(r, executor, *store);
        executor.wait_for_all();
        copied += memory->bytes_copied;
      } catch (const std::exception& e) {
        errors[r] = e.what();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_FALSE(world.violation()) << comm::describe(*world.violation());
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  return copied;
}

// Two steps of two keys pushed in one call and pulled into their vars, on every rank: the sums
// must be exact.
std::uint64_t expect_push_pull_sums(const designs::DesignConfig& config) {
  return on_every_rank(config, [&](dag::Rank r, exec::Executor& ex, KVStore& kv) {
    const auto x = static_cast<float>(r);
    const dag::VarId a = ex.add_var({"a", dag::VarKind::tensor, 16, dag::DType::f32});
    const dag::VarId b = ex.add_var({"b", dag::VarKind::tensor, 8, dag::DType::f32});
    EXPECT_EQ(peek(ex, a), std::vector<float>(4, 0.0f)) << "placed vars start as zeros";
    for (int step = 1; step <= 2; ++step) {
      const auto s = static_cast<float>(step);
      poke(ex, a, {x, 2 * x, s, -1});
      poke(ex, b, {s * x, 7});
      kv.push({{0, a}, {1, b}});
      kv.pull(0, a);
      kv.pull(1, b);
      ex.wait_for_all();
      // Ranks 0, 1 and 2: the sums of x, 2x and s * x are 3, 6 and 3s.
      EXPECT_EQ(peek(ex, a), (std::vector<float>{3, 6, 3 * s, -3}))
          << designs::describe(config) << " step " << step;
      EXPECT_EQ(peek(ex, b), (std::vector<float>{3 * s, 21}))
          << designs::describe(config) << " step " << step;
    }
  });
}

TEST(BuffersPlacement, VarsTakeTheirBytesFromThePlacementAndTokensNone) {
  auto memory = std::make_shared<FakeDeviceMemory>();
  exec::Buffers buffers(memory);
  const dag::VarId g = buffers.add({"g", dag::VarKind::tensor, 12, dag::DType::f32});
  const dag::VarId t = buffers.add({"t", dag::VarKind::token, 0, dag::DType::u8});
  EXPECT_EQ(memory->allocations, 1u);
  EXPECT_EQ(buffers.bytes(g).size(), 12u);
  EXPECT_NE(buffers.bytes(g).data(), nullptr);
  EXPECT_TRUE(buffers.bytes(t).empty());
  EXPECT_FALSE(buffers.host_visible());
  EXPECT_EQ(buffers.describe_memory(), "fake device memory");

  const exec::Buffers host;
  EXPECT_TRUE(host.host_visible());
  EXPECT_EQ(host.describe_memory(), "host memory");
}

TEST(BuffersPlacement, FillAndAsRefuseMemoryTheHostMayNotTouch) {
  exec::Buffers buffers(std::make_shared<FakeDeviceMemory>());
  const dag::VarId g = buffers.add({"g", dag::VarKind::tensor, 16, dag::DType::f32});
  const std::string fill = refusal([&] { buffers.fill<float>(g, {1, 2, 3, 4}); });
  EXPECT_NE(fill.find("Buffers::fill of var 'g'"), std::string::npos) << fill;
  EXPECT_NE(fill.find("fake device memory"), std::string::npos) << fill;
  EXPECT_NE(fill.find("host-visible"), std::string::npos) << fill;
  const std::string as = refusal([&] { (void)buffers.as<float>(g); });
  EXPECT_NE(as.find("Buffers::as of var 'g'"), std::string::npos) << as;
}

// The designs' collectives only take addresses: in place, a push and a pull into the pushed var
// reduce the placed memory where it is, on every rank, key after key and step after step, and
// nothing is copied.
TEST(ExecutorPlacement, FunnelAndDepchaPushAndPullInPlaceOnPlacedVars) {
  for (const designs::DesignKind kind :
       {designs::DesignKind::funnel, designs::DesignKind::depcha}) {
    designs::DesignConfig config;
    config.kind = kind;
    EXPECT_EQ(expect_push_pull_sums(config), 0u) << designs::describe(config);
  }
}

// The paper's copy buffers and fused's buckets copy: through the placement's own copy, never
// the host's memcpy.
TEST(ExecutorPlacement, CopyBuffersAndBucketsCopyThroughThePlacement) {
  for (const designs::DesignKind kind :
       {designs::DesignKind::funnel, designs::DesignKind::depcha, designs::DesignKind::fused}) {
    designs::DesignConfig config;
    config.kind = kind;
    config.buffers = designs::BufferMode::copy;
    EXPECT_GT(expect_push_pull_sums(config), 0u) << designs::describe(config);
  }
  designs::DesignConfig fused;
  fused.kind = designs::DesignKind::fused;  // both keys in one bucket, packed and unpacked
  EXPECT_GT(expect_push_pull_sums(fused), 0u) << designs::describe(fused);
}

// The copy pool as a device pool: its copies go on the queue, through the placement, and the
// sums still come out exact.
TEST(ExecutorPlacement, ACopyPoolOnADeviceQueueEnqueuesItsCopies) {
  for (const designs::DesignKind kind :
       {designs::DesignKind::funnel, designs::DesignKind::depcha, designs::DesignKind::fused}) {
    designs::DesignConfig config;
    config.kind = kind;
    config.buffers = designs::BufferMode::copy;
    comm::sim::SimWorld world(1, designs::step_comms(config));
    engine::Engine engine(engine_config(config), std::make_unique<engine::ThreadPoolScheduler>());
    auto memory = std::make_shared<FakeDeviceMemory>();
    engine::HostDeviceQueue copies;
    exec::Executor executor(engine, world.rank(0), designs::step_comms(config), {}, memory);
    executor.use_device_queue(designs::copy_pool, copies);
    auto store = KVStore::create(to_string(kind), executor, world.rank(0), config);
    const dag::VarId a = executor.add_var({"a", dag::VarKind::tensor, 16, dag::DType::f32});
    const dag::VarId b = executor.add_var({"b", dag::VarKind::tensor, 8, dag::DType::f32});
    poke(executor, a, {1, 2, 3, 4});
    poke(executor, b, {5, 6});
    store->push({{0, a}, {1, b}});
    store->pull(0, a);
    store->pull(1, b);
    executor.wait_for_all();
    EXPECT_EQ(peek(executor, a), (std::vector<float>{1, 2, 3, 4})) << designs::describe(config);
    EXPECT_EQ(peek(executor, b), (std::vector<float>{5, 6})) << designs::describe(config);
    EXPECT_GT(memory->bytes_enqueued, 0u) << designs::describe(config);
    EXPECT_EQ(memory->bytes_copied, 0u) << designs::describe(config);
    executor.main_done();
  }
}

// In place, a pull into a var other than the pushed one is a copy op: it copies the sum there.
TEST(ExecutorPlacement, APullIntoAnotherVarCopiesTheSumThere) {
  designs::DesignConfig config;
  config.kind = designs::DesignKind::depcha;
  comm::sim::SimWorld world(1, designs::step_comms(config));
  engine::Engine engine(engine_config(config), std::make_unique<engine::ThreadPoolScheduler>());
  auto memory = std::make_shared<FakeDeviceMemory>();
  exec::Executor executor(engine, world.rank(0), designs::step_comms(config), {}, memory);
  auto store = KVStore::create("depcha", executor, world.rank(0), config);
  const dag::VarId g = executor.add_var({"g", dag::VarKind::tensor, 16, dag::DType::f32});
  const dag::VarId out = executor.add_var({"out", dag::VarKind::tensor, 16, dag::DType::f32});
  poke(executor, g, {1, 2, 3, 4});
  store->push(0, g);
  store->pull(0, out);
  executor.wait_for_all();
  EXPECT_EQ(peek(executor, out), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(memory->bytes_copied, 16u);
  executor.main_done();
}

TEST(ExecutorPlacement, AComputeHookIsRefused) {
  designs::DesignConfig config;
  comm::sim::SimWorld world(1, designs::step_comms(config));
  engine::Engine engine(engine_config(config), std::make_unique<engine::ThreadPoolScheduler>());
  bool ran = false;
  exec::BodyOptions bodies;
  bodies.compute = [&](dag::Rank, const dag::Op&, exec::Buffers&) { ran = true; };
  exec::Executor executor(engine, world.rank(0), designs::step_comms(config), bodies,
                          std::make_shared<FakeDeviceMemory>());
  const dag::VarId g = executor.add_var({"g", dag::VarKind::tensor, 16, dag::DType::f32});
  dag::Op backward;
  backward.name = "backward";
  backward.writes = {g};
  executor.submit(backward);
  const std::string error = refusal([&] { executor.wait_for_all(); });
  EXPECT_NE(error.find("compute op 'backward'"), std::string::npos) << error;
  EXPECT_NE(error.find("compute hook"), std::string::npos) << error;
  EXPECT_FALSE(ran);
  executor.main_done();
}

// A hook that computes on the device the vars are on is let through.
TEST(ExecutorPlacement, AComputeHookOnTheDeviceRuns) {
  designs::DesignConfig config;
  comm::sim::SimWorld world(1, designs::step_comms(config));
  engine::Engine engine(engine_config(config), std::make_unique<engine::ThreadPoolScheduler>());
  std::atomic<bool> ran{false};
  exec::BodyOptions bodies;
  bodies.compute = [&](dag::Rank, const dag::Op&, exec::Buffers&) { ran = true; };
  bodies.compute_on_device = true;
  exec::Executor executor(engine, world.rank(0), designs::step_comms(config), bodies,
                          std::make_shared<FakeDeviceMemory>());
  const dag::VarId g = executor.add_var({"g", dag::VarKind::tensor, 16, dag::DType::f32});
  dag::Op backward;
  backward.name = "backward";
  backward.writes = {g};
  executor.submit(backward);
  executor.wait_for_all();
  EXPECT_TRUE(ran);
  executor.main_done();
}

// An out-of-place collective (naive's push with copy buffers) copies its read var in first:
// only the slice the call moves, through the placement.
TEST(ExecutorPlacement, AnOutOfPlaceCollectiveCopiesItsSliceThroughThePlacement) {
  designs::DesignConfig config;
  comm::sim::SimWorld world(1, designs::step_comms(config));
  engine::Engine engine(engine_config(config), std::make_unique<engine::ThreadPoolScheduler>());
  auto memory = std::make_shared<FakeDeviceMemory>();
  exec::Executor executor(engine, world.rank(0), designs::step_comms(config), {}, memory);
  const dag::VarId g = executor.add_var({"g", dag::VarKind::tensor, 16, dag::DType::f32});
  const dag::VarId buf = executor.add_var({"buf", dag::VarKind::buffer, 16, dag::DType::f32});
  poke(executor, g, {1, 2, 3, 4});
  dag::Op op;
  op.name = "allreduce";
  op.kind = dag::OpKind::collective;
  op.pool = 2;
  op.reads = {g};
  op.writes = {buf};
  dag::Collective slice;
  slice.count = 2;
  slice.reduction = dag::Reduction::sum;
  slice.offset = 1;
  op.collective = slice;
  executor.submit(op);
  executor.wait_for_all();
  EXPECT_EQ(peek(executor, buf), (std::vector<float>{0, 2, 3, 0}));
  EXPECT_EQ(memory->bytes_copied, 8u);
  executor.main_done();
}

}  // namespace
}  // namespace ordo::kvstore
