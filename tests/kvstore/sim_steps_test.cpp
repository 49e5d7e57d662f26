// Every design on simulated ranks with real threads (the production scheduler):
// the pulled gradients equal the exact sum over ranks, for 2 to 8 ranks, and
// the KVStore API on its own.
#include <gtest/gtest.h>

#include <memory>
#include <thread>

#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/dag/validate.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/kvstore/kvstore.hpp"
#include "runtime/kvstore/step_run.hpp"

namespace ordo::kvstore {
namespace {

struct Case {
  designs::DesignConfig config;
  std::uint32_t ranks = 2;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (designs::DesignKind kind :
       {designs::DesignKind::naive, designs::DesignKind::funnel, designs::DesignKind::concom,
        designs::DesignKind::depcha, designs::DesignKind::fused, designs::DesignKind::nonblocking,
        designs::DesignKind::sharded, designs::DesignKind::hierarchical,
        designs::DesignKind::priority}) {
    for (designs::BufferMode buffers : {designs::BufferMode::in_place, designs::BufferMode::copy}) {
      for (std::uint32_t ranks : {2u, 3u, 5u, 8u}) {
        designs::DesignConfig c;
        c.kind = kind;
        c.buffers = buffers;
        // One comm thread makes naive's order the backward order on this chain
        // network, and keeps concom within the thread rule whatever ncomm and
        // outstanding are.
        if (kind == designs::DesignKind::naive || kind == designs::DesignKind::concom)
          c.comm_threads = 1;
        c.bucket_bytes = 1500;  // fused: the mlp's 1 KiB weights and 64-byte biases in four buckets
        // sharded: the mlp's 256- and 16-element keys split at 2 and 8 ranks; at 3 and 5 none
        // does, and every key takes the chained allreduce.
        c.shards = ranks;
        // hierarchical: two nodes where the count is even, else one node of every rank.
        c.nodes = ranks % 2 == 0 ? 2 : 1;
        c.node_ranks = ranks / c.nodes;
        // priority: the mlp's 1 KiB weights in slices of 96 floats (the last one shorter), two
        // slices released per push.
        c.slice_bytes = 384;
        c.credit_bytes = 768;
        out.push_back({c, ranks});
      }
    }
  }
  return out;
}

std::string name_of(const ::testing::TestParamInfo<Case>& info) {
  return std::string(to_string(info.param.config.kind)) + "_" +
         std::string(to_string(info.param.config.buffers)) + "_" +
         std::to_string(info.param.ranks) + "ranks";
}

// run_steps on every simulated rank of `c`, each on its own thread; every rank must end without
// an error and the world without a violation.
std::vector<StepRunResult> run_on_ranks(const Case& c, const StepRunOptions& options) {
  comm::sim::SimWorld world(c.ranks, designs::step_comms(c.config));
  world.start_watchdog(std::chrono::milliseconds(20));
  std::vector<StepRunResult> results(c.ranks);
  std::vector<std::string> errors(c.ranks);
  std::vector<std::thread> threads;
  for (dag::Rank r = 0; r < c.ranks; ++r) {
    threads.emplace_back([&, r] {
      try {
        results[r] =
            run_steps(networks::mlp(3, 16, 10.0), c.config, world.rank(r), options, &world);
      } catch (const std::exception& e) {
        errors[r] = e.what();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_FALSE(world.violation()) << comm::describe(*world.violation());
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  return results;
}

class SimSteps : public ::testing::TestWithParam<Case> {};

TEST_P(SimSteps, PulledGradientsEqualTheExactSum) {
  StepRunOptions options;
  options.steps = 3;
  options.compute_time_scale = 0.0;
  for (const StepRunResult& r : run_on_ranks(GetParam(), options)) {
    EXPECT_EQ(r.keys_checked, 3u * 6u);
    EXPECT_EQ(r.keys_wrong, 0u);
    EXPECT_TRUE(r.weights_initialised);
  }
}

INSTANTIATE_TEST_SUITE_P(Designs, SimSteps, ::testing::ValuesIn(cases()), name_of);

// The same with steps not closed by a wait for all (StepOptions::overlap): every update adds its
// sum into the weight, so the weights at the end hold every step's exact sum or show the step that
// went wrong. Naive aside, every design at 2 and 3 ranks.
class SimStepsOverlapped : public ::testing::TestWithParam<Case> {};

TEST_P(SimStepsOverlapped, WeightsHoldEveryStepsExactSum) {
  StepRunOptions options;
  options.steps = 4;
  options.compute_time_scale = 0.0;
  options.overlap = true;
  for (const StepRunResult& r : run_on_ranks(GetParam(), options)) {
    EXPECT_EQ(r.keys_checked, 4u * 6u);
    EXPECT_EQ(r.keys_wrong, 0u);
  }
}

std::vector<Case> overlapped_cases() {
  std::vector<Case> out;
  for (const Case& c : cases()) {
    if (c.config.kind != designs::DesignKind::naive && c.ranks <= 3) out.push_back(c);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Designs, SimStepsOverlapped, ::testing::ValuesIn(overlapped_cases()),
                         name_of);

TEST(KvstoreApi, InitBroadcastsAndPushpullSums) {
  constexpr std::uint32_t ranks = 3;
  comm::sim::SimWorld world(ranks, designs::step_comms(designs::DesignConfig{}));
  std::vector<std::vector<float>> weights(ranks), grads(ranks);
  std::vector<std::string> errors(ranks);
  std::vector<std::thread> threads;
  for (dag::Rank r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      try {
        engine::EngineConfig config;
        config.pools = designs::step_pools(designs::DesignConfig{});
        engine::Engine eng(std::move(config), std::make_unique<engine::ThreadPoolScheduler>());
        exec::Executor ex(eng, world.rank(r), designs::step_comms(designs::DesignConfig{}), {});
        const dag::VarId w = ex.add_var({"w", dag::VarKind::tensor, 16, dag::DType::f32});
        const dag::VarId g = ex.add_var({"g", dag::VarKind::tensor, 16, dag::DType::f32});
        ex.buffers().fill<float>(w, {1.0f * static_cast<float>(r), 2, 3, 4});
        ex.buffers().fill<float>(g, {1.0f, 2.0f * static_cast<float>(r), 0.5f, -1});
        auto kv = KVStore::create("depcha", ex, world.rank(r));
        EXPECT_EQ(kv->rank(), r);
        EXPECT_EQ(kv->size(), ranks);
        kv->init(3, w);
        kv->pushpull(3, g);
        kv->barrier();
        ex.wait_for_all();
        const auto wspan = ex.buffers().as<float>(w);
        const auto gspan = ex.buffers().as<float>(g);
        weights[r].assign(wspan.begin(), wspan.end());
        grads[r].assign(gspan.begin(), gspan.end());
      } catch (const std::exception& e) {
        errors[r] = e.what();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  ASSERT_FALSE(world.violation()) << comm::describe(*world.violation());
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  for (dag::Rank r = 0; r < ranks; ++r) {
    EXPECT_EQ(weights[r], (std::vector<float>{0, 2, 3, 4}));
    EXPECT_EQ(grads[r], (std::vector<float>{3, 6, 1.5f, -3}));
  }
}

// fused packs the keys of one push call into one bucket; keys pushed by separate calls each go
// out at their call's end, so that a wait for the engine after a push waits for its sum.
TEST(KvstoreApi, FusedSharesABucketAmongTheKeysOfOnePushCall) {
  designs::DesignConfig c;
  c.kind = designs::DesignKind::fused;
  const auto allreduces = [&](bool one_call) {
    comm::sim::SimWorld world(1, designs::step_comms(c));
    engine::EngineConfig config;
    config.pools = designs::step_pools(c);
    config.record = true;
    engine::Engine eng(std::move(config), std::make_unique<engine::ThreadPoolScheduler>());
    exec::Executor ex(eng, world.rank(0), designs::step_comms(c), {});
    const dag::VarId g1 = ex.add_var({"g1", dag::VarKind::tensor, 8, dag::DType::f32});
    const dag::VarId g2 = ex.add_var({"g2", dag::VarKind::tensor, 8, dag::DType::f32});
    auto kv = KVStore::create("fused", ex, world.rank(0), c);
    if (one_call) {
      kv->push({{1, g1}, {2, g2}});
    } else {
      kv->push(1, g1);
      kv->push(2, g2);
    }
    kv->pull(1, g1);
    kv->pull(2, g2);
    ex.wait_for_all();
    const dag::Job job = eng.recorded_job();
    EXPECT_TRUE(dag::validate(job).empty());
    std::size_t n = 0;
    for (const dag::Op& op : job.programs.at(0).ops) n += op.collective ? 1u : 0u;
    return n;
  };
  EXPECT_EQ(allreduces(true), 1u);
  EXPECT_EQ(allreduces(false), 2u);
}

TEST(KvstoreApi, RepeatedPushesRecordAValidProgram) {
  for (const char* design : {"naive", "funnel", "concom", "depcha", "fused", "nonblocking"}) {
    for (designs::BufferMode buffers : {designs::BufferMode::in_place, designs::BufferMode::copy}) {
      designs::DesignConfig c;
      c.kind = designs::parse_design(design);
      c.buffers = buffers;
      comm::sim::SimWorld world(1, designs::step_comms(c));
      engine::EngineConfig config;
      config.pools = designs::step_pools(c);
      config.record = true;
      engine::Engine eng(std::move(config), std::make_unique<engine::ThreadPoolScheduler>());
      exec::Executor ex(eng, world.rank(0), designs::step_comms(c), {});
      const dag::VarId w = ex.add_var({"w", dag::VarKind::tensor, 8, dag::DType::f32});
      const dag::VarId g = ex.add_var({"g", dag::VarKind::tensor, 8, dag::DType::f32});
      auto kv = KVStore::create(design, ex, world.rank(0), c);
      kv->init(0, w);
      for (int step = 0; step < 3; ++step) kv->pushpull(0, g);
      kv->barrier();
      const std::vector<dag::Diagnostic> problems = dag::validate(eng.recorded_job());
      EXPECT_TRUE(problems.empty()) << designs::describe(c) << ": " << problems.front().where
                                    << ": " << problems.front().message;
    }
  }
}

TEST(KvstoreApi, UnknownDesignNameIsRejected) {
  comm::sim::SimWorld world(1, designs::step_comms(designs::DesignConfig{}));
  engine::EngineConfig config;
  config.pools = designs::step_pools(designs::DesignConfig{});
  engine::Engine eng(std::move(config), std::make_unique<engine::ThreadPoolScheduler>());
  exec::Executor ex(eng, world.rank(0), designs::step_comms(designs::DesignConfig{}), {});
  EXPECT_THROW(KVStore::create("horovod", ex, world.rank(0)), std::invalid_argument);
}

}  // namespace
}  // namespace ordo::kvstore
