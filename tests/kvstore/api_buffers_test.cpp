// What the buffer mode means to a KVStore user, on simulated ranks: in place, push leaves the sum
// in the pushed var and pull copies it out of there; with copy buffers the pushed var keeps this
// rank's gradient. Either way the pulled var holds the exact sum.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <thread>

#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/kvstore/kvstore.hpp"

namespace ordo::kvstore {
namespace {

constexpr std::uint32_t ranks = 3;

// Runs `body` as every rank's main thread, each with its own engine, executor and store.
void on_every_rank(const designs::DesignConfig& config,
                   const std::function<void(dag::Rank, exec::Executor&, KVStore&)>& body) {
  comm::sim::SimWorld world(ranks, designs::step_comms(config));
  std::vector<std::string> errors(ranks);
  std::vector<std::thread> threads;
  for (dag::Rank r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      try {
        engine::EngineConfig engine_config;
        engine_config.pools = designs::step_pools(config);
        engine::Engine engine(std::move(engine_config),
                              std::make_unique<engine::ThreadPoolScheduler>());
        exec::Executor executor(engine, world.rank(r), designs::step_comms(config), {});
        auto store = KVStore::create(to_string(config.kind), executor, world.rank(r), config);
        body(r, executor, *store);
        executor.wait_for_all();
      } catch (const std::exception& e) {
        errors[r] = e.what();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  ASSERT_FALSE(world.violation()) << comm::describe(*world.violation());
  for (const std::string& e : errors) EXPECT_EQ(e, "");
}

std::vector<designs::DesignConfig> safe_configs(designs::BufferMode buffers) {
  std::vector<designs::DesignConfig> out;
  for (designs::DesignKind kind :
       {designs::DesignKind::funnel, designs::DesignKind::concom, designs::DesignKind::depcha,
        designs::DesignKind::fused, designs::DesignKind::nonblocking,
        designs::DesignKind::hierarchical, designs::DesignKind::priority}) {
    designs::DesignConfig c;
    c.kind = kind;
    c.buffers = buffers;
    if (kind == designs::DesignKind::concom) c.comm_threads = 1;
    // hierarchical: one node of every rank, its leader alone on the leaders' communicator.
    c.nodes = 1;
    c.node_ranks = ranks;
    // priority: the key of 4 floats in slices of 3 and 1, the second held back to the pull.
    c.slice_bytes = 12;
    c.credit_bytes = 4;
    out.push_back(c);
  }
  return out;
}

// Rank r's gradient {r, 2r, 3r, 1}: the sum over three ranks is {3, 6, 9, 3}.
std::vector<float> gradient(dag::Rank r) {
  const auto x = static_cast<float>(r);
  return {x, 2 * x, 3 * x, 1};
}
const std::vector<float> sum = {3, 6, 9, 3};

std::vector<float> values(exec::Executor& executor, dag::VarId var) {
  const std::span<float> v = executor.buffers().as<float>(var);
  return {v.begin(), v.end()};
}

TEST(KvstoreBuffers, ShardedIsRefusedSinceItLeavesNoSumToPull) {
  designs::DesignConfig config;
  config.kind = designs::DesignKind::sharded;
  config.shards = 1;
  comm::sim::SimWorld world(1, designs::step_comms(config));
  engine::EngineConfig engine_config;
  engine_config.pools = designs::step_pools(config);
  engine::Engine engine(std::move(engine_config), std::make_unique<engine::ThreadPoolScheduler>());
  exec::Executor executor(engine, world.rank(0), designs::step_comms(config), {});
  EXPECT_THROW(KVStore::create("sharded", executor, world.rank(0), config), std::invalid_argument);
  executor.main_done();
}

TEST(KvstoreBuffers, PullIntoAnotherVarGetsTheSumInBothModes) {
  for (designs::BufferMode buffers : {designs::BufferMode::in_place, designs::BufferMode::copy}) {
    for (const designs::DesignConfig& config : safe_configs(buffers)) {
      on_every_rank(config, [&](dag::Rank r, exec::Executor& ex, KVStore& kv) {
        const dag::VarId g = ex.add_var({"g", dag::VarKind::tensor, 16, dag::DType::f32});
        const dag::VarId out = ex.add_var({"out", dag::VarKind::tensor, 16, dag::DType::f32});
        ex.buffers().fill<float>(g, gradient(r));
        kv.push(9, g);
        kv.pull(9, out);
        ex.wait_for_all();
        EXPECT_EQ(values(ex, out), sum) << designs::describe(config);
        // In place the sum was formed in the pushed var; a copy buffer left it alone.
        EXPECT_EQ(values(ex, g), buffers == designs::BufferMode::in_place ? sum : gradient(r))
            << designs::describe(config);
      });
    }
  }
}

// With copy buffers a push sums the value pushed: a gradient written again before its pull must
// not leak into the sum, in every design, fused too (it holds keys until a bucket closes). Two
// keys pushed before either is pulled share one fused bucket.
TEST(KvstoreBuffers, CopyBuffersSumTheValuesPushedNotLaterWrites) {
  for (const designs::DesignConfig& config : safe_configs(designs::BufferMode::copy)) {
    on_every_rank(config, [&](dag::Rank r, exec::Executor& ex, KVStore& kv) {
      const dag::VarId g1 = ex.add_var({"g1", dag::VarKind::tensor, 16, dag::DType::f32});
      const dag::VarId g2 = ex.add_var({"g2", dag::VarKind::tensor, 16, dag::DType::f32});
      ex.buffers().fill<float>(g1, gradient(r));
      ex.buffers().fill<float>(g2, gradient(r));
      kv.push(1, g1);
      kv.push(2, g2);
      // The main thread writes g1 outside the engine, as a user's code would: after waiting for
      // every op that may still read it.
      ex.wait_for_all();
      ex.buffers().fill<float>(g1, {100, 100, 100, 100});
      kv.pull(1, g1);
      kv.pull(2, g2);
      ex.wait_for_all();
      EXPECT_EQ(values(ex, g1), sum) << designs::describe(config);
      EXPECT_EQ(values(ex, g2), sum) << designs::describe(config);
    });
  }
}

// A key pushed twice before its pull: the pull gets the second push's sum in every design (fused
// closes the first push's bucket before the second push's copy, and a bucket holds a key once).
TEST(KvstoreBuffers, ASecondPushBeforeThePullIsTheOnePulled) {
  for (designs::BufferMode buffers : {designs::BufferMode::in_place, designs::BufferMode::copy}) {
    for (const designs::DesignConfig& config : safe_configs(buffers)) {
      on_every_rank(config, [&](dag::Rank r, exec::Executor& ex, KVStore& kv) {
        const dag::VarId g = ex.add_var({"g", dag::VarKind::tensor, 16, dag::DType::f32});
        const dag::VarId out = ex.add_var({"out", dag::VarKind::tensor, 16, dag::DType::f32});
        ex.buffers().fill<float>(g, {100, 100, 100, 100});
        kv.push(5, g);
        ex.wait_for_all();
        ex.buffers().fill<float>(g, gradient(r));
        kv.push(5, g);
        kv.pull(5, out);
        ex.wait_for_all();
        EXPECT_EQ(values(ex, out), sum) << designs::describe(config);
      });
    }
  }
}

TEST(KvstoreBuffers, InPlacePullBeforeAnyPushIsRefusedOnEveryRank) {
  for (const designs::DesignConfig& config : safe_configs(designs::BufferMode::in_place)) {
    on_every_rank(config, [&](dag::Rank r, exec::Executor& ex, KVStore& kv) {
      const dag::VarId g = ex.add_var({"g", dag::VarKind::tensor, 16, dag::DType::f32});
      EXPECT_THROW(kv.pull(4, g), std::invalid_argument);
      // The refusal issued nothing, so the ranks are still in step for a real pushpull.
      ex.buffers().fill<float>(g, gradient(r));
      kv.pushpull(4, g);
      ex.wait_for_all();
      EXPECT_EQ(values(ex, g), sum) << designs::describe(config);
    });
  }
}

}  // namespace
}  // namespace ordo::kvstore
