// The KVStore API on real ranks, by design name: init broadcasts rank 0's weights bit for bit,
// push and pull sum gradients exactly, keys keep their size, bad names and worlds are refused.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

#include "rank_checks.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/kvstore/kvstore.hpp"
#include "runtime/kvstore/step_run.hpp"
#include "tested_designs.hpp"
#include "tests/comm/mpi_env.hpp"

namespace ordo::kvstore::mpi_test {
namespace {

// Keys as a trainer might number them (not 0..n-1, not in order), with the sizes of the other
// tests: 1, 1023, 1024 (4 KiB) and 262144 (1 MiB) f32 elements.
struct KeySize {
  std::int64_t key;
  std::uint64_t count;
};
const std::vector<KeySize> api_keys = {{7, 1}, {3, 1023}, {100, 1024}, {42, 256 * 1024}};

engine::EngineConfig engine_config(const designs::DesignConfig& config) {
  engine::EngineConfig c;
  c.pools = designs::step_pools(config);
  return c;
}

// One rank's KVStore over a world with exactly the communicators its design needs.
class StoreRig {
 public:
  explicit StoreRig(const designs::DesignConfig& config)
      : world_(comm::test::runtime(), designs::step_comms(config)),
        engine_(engine_config(config), std::make_unique<engine::ThreadPoolScheduler>()),
        executor_(engine_, world_, designs::step_comms(config), exec::BodyOptions{}),
        store_(KVStore::create(to_string(config.kind), executor_, world_, config)) {}

  KVStore& store() { return *store_; }
  exec::Executor& executor() { return executor_; }
  dag::Rank rank() const { return world_.rank(); }
  std::uint32_t size() const { return world_.size(); }

  dag::VarId tensor(const std::string& name, std::uint64_t count) {
    return executor_.add_var({name, dag::VarKind::tensor, count * sizeof(float), dag::DType::f32});
  }
  std::span<const std::byte> bytes(dag::VarId var) {
    return std::as_const(executor_.buffers()).bytes(var);
  }
  void write(dag::VarId var, std::span<const std::byte> bytes) {
    std::span<std::byte> to = executor_.buffers().bytes(var);
    ASSERT_EQ(to.size(), bytes.size());
    std::memcpy(to.data(), bytes.data(), bytes.size());
  }
  // This rank's gradient of `key` in `round`, as the step runs make it.
  void write_gradient(dag::VarId var, std::int64_t key, std::uint32_t round) {
    std::span<float> g = executor_.buffers().as<float>(var);
    for (std::uint64_t i = 0; i < g.size(); ++i) g[i] = gradient_value(rank(), key, i, round);
  }

 private:
  comm::MpiWorld world_;
  engine::Engine engine_;
  exec::Executor executor_;
  std::unique_ptr<KVStore> store_;
};

std::string label(const StoreRig& rig, const char* what, std::int64_t key) {
  return std::string(what) + " of key " + std::to_string(key) + " on rank " +
         std::to_string(rig.rank());
}

class KVStoreApi : public ::testing::TestWithParam<designs::DesignConfig> {};

TEST_P(KVStoreApi, InitBroadcastsRankZerosWeightsBitForBit) {
  StoreRig rig(GetParam());
  std::vector<dag::VarId> weights;
  for (const KeySize& k : api_keys) {
    weights.push_back(rig.tensor("weight." + std::to_string(k.key), k.count));
    rig.write(weights.back(), bytes_of(weight_pattern(rig.rank(), k.key, k.count)));
  }
  for (std::size_t i = 0; i < api_keys.size(); ++i) rig.store().init(api_keys[i].key, weights[i]);
  rig.executor().wait_for_all();
  for (std::size_t i = 0; i < api_keys.size(); ++i) {
    const KeySize& k = api_keys[i];
    EXPECT_EQ(f32_difference(rig.bytes(weights[i]), bytes_of(weight_pattern(0, k.key, k.count)),
                             label(rig, "weight", k.key)),
              "");
    EXPECT_TRUE(same_on_every_rank(rig.bytes(weights[i]))) << label(rig, "weight", k.key);
  }
}

TEST_P(KVStoreApi, PushPullSumsEveryKeyRoundAfterRound) {
  StoreRig rig(GetParam());
  std::vector<dag::VarId> grads;
  for (const KeySize& k : api_keys)
    grads.push_back(rig.tensor("grad." + std::to_string(k.key), k.count));
  // Rounds reuse each key's buffer; a barrier between them is the API's own.
  for (std::uint32_t round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < api_keys.size(); ++i) {
      rig.write_gradient(grads[i], api_keys[i].key, round);
    }
    for (std::size_t i = 0; i < api_keys.size(); ++i)
      rig.store().pushpull(api_keys[i].key, grads[i]);
    rig.executor().wait_for_all();
    for (std::size_t i = 0; i < api_keys.size(); ++i) {
      const KeySize& k = api_keys[i];
      EXPECT_EQ(f32_difference(
                    rig.bytes(grads[i]), bytes_of(expected_sum(rig.size(), k.key, k.count, round)),
                    label(rig, "gradient", k.key) + " in round " + std::to_string(round)),
                "");
      EXPECT_TRUE(same_on_every_rank(rig.bytes(grads[i]))) << label(rig, "gradient", k.key);
    }
    rig.store().barrier();
  }
}

TEST_P(KVStoreApi, PullWritesTheSumIntoAnotherVar) {
  StoreRig rig(GetParam());
  const KeySize k = api_keys.back();
  const dag::VarId grad = rig.tensor("grad", k.count);
  const dag::VarId out = rig.tensor("out", k.count);
  rig.write_gradient(grad, k.key, 0);
  const std::span<const std::byte> written = rig.bytes(grad);
  const std::vector<std::byte> contribution(written.begin(), written.end());
  rig.store().push(k.key, grad);
  rig.store().pull(k.key, out);
  rig.executor().wait_for_all();
  EXPECT_EQ(f32_difference(rig.bytes(out), bytes_of(expected_sum(rig.size(), k.key, k.count, 0)),
                           label(rig, "pulled sum", k.key)),
            "");
  if (GetParam().buffers == designs::BufferMode::copy) {
    // push sums a copy: the gradient itself still holds this rank's contribution.
    EXPECT_EQ(f32_difference(rig.bytes(grad), contribution, label(rig, "pushed gradient", k.key)),
              "");
  } else {
    // In place the sum is formed in the pushed gradient, and pull copied it from there.
    EXPECT_EQ(f32_difference(rig.bytes(grad), rig.bytes(out), label(rig, "pushed gradient", k.key)),
              "");
  }
}

TEST_P(KVStoreApi, RefusesAKeyWhoseSizeChanges) {
  StoreRig rig(GetParam());
  const dag::VarId small = rig.tensor("small", 1023);
  const dag::VarId large = rig.tensor("large", 1024);
  rig.write_gradient(small, 5, 0);
  rig.store().pushpull(5, small);
  // Refused before anything is submitted or issued, identically on every rank, so the ranks stay
  // in step.
  EXPECT_THROW(rig.store().push(5, large), std::invalid_argument);
  EXPECT_THROW(rig.store().pull(5, large), std::invalid_argument);
  rig.executor().wait_for_all();
  EXPECT_EQ(f32_difference(rig.bytes(small), bytes_of(expected_sum(rig.size(), 5, 1023, 0)),
                           label(rig, "gradient", 5)),
            "");
}

INSTANTIATE_TEST_SUITE_P(SafeDesigns, KVStoreApi,
                         ::testing::Values(funnel_config(), concom_config(), depcha_config(2)),
                         [](const auto& p) { return test_name(p.param); });
INSTANTIATE_TEST_SUITE_P(CopyBuffers, KVStoreApi, ::testing::ValuesIn(copy_designs()),
                         [](const auto& p) { return test_name(p.param); });

TEST(KVStoreApiCreate, RefusesUnknownNamesAndWorldsWithoutTheDesignsCommunicators) {
  // A world with only the world communicator: right for depcha, one short of concom's rotation.
  const designs::DesignConfig depcha = depcha_config(2);
  comm::MpiWorld world(comm::test::runtime(), designs::step_comms(depcha));
  engine::Engine engine(engine_config(depcha), std::make_unique<engine::ThreadPoolScheduler>());
  exec::Executor executor(engine, world, designs::step_comms(depcha), exec::BodyOptions{});
  EXPECT_THROW(KVStore::create("allgather", executor, world, depcha), std::invalid_argument);
  EXPECT_THROW(KVStore::create("concom", executor, world, concom_config()), std::invalid_argument);
  EXPECT_NE(KVStore::create("depcha", executor, world, depcha), nullptr);
}

}  // namespace
}  // namespace ordo::kvstore::mpi_test
