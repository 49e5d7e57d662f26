#include "tests/train/sim_ranks.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <thread>

#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/networks/network_builder.hpp"

namespace ordo::train {

const data::LabelledImages& fashion(bool train) {
  // Each half read once per process, and only when asked for: most tests want the training half.
  if (train) {
    static const data::LabelledImages set =
        data::read_fashion_mnist(data::fashion_mnist_dir_default, true);
    return set;
  }
  static const data::LabelledImages set =
      data::read_fashion_mnist(data::fashion_mnist_dir_default, false);
  return set;
}

networks::Network small_cnn() {
  namespace op = networks::op;
  networks::NetworkBuilder b("small_cnn", {1, 28, 28});
  const auto c1 = b.add("conv1", {}, {op::conv(4, 3, 2, 1), op::batch_norm(), op::relu()});
  const auto c2 = b.add("conv2", {c1}, {op::conv(8, 3, 2, 1), op::batch_norm(), op::relu()});
  const auto gap = b.add("pool", {c2}, {op::global_avg_pool()});
  b.add("fc", {gap}, {op::dense(10)});
  return b.build(1.0);
}

std::vector<DesignCase> design_cases() {
  std::vector<DesignCase> out = {{"depcha", {}}, {"funnel", {}}, {"fused", {}}, {"sharded", {}}};
  out[0].config.kind = designs::DesignKind::depcha;
  out[1].config.kind = designs::DesignKind::funnel;
  out[2].config.kind = designs::DesignKind::fused;
  out[2].config.buffers = designs::BufferMode::copy;
  out[2].config.bucket_bytes = 1 << 10;
  out[3].config.kind = designs::DesignKind::sharded;
  out[3].config.shards = 2;
  return out;
}

ShortRun short_run() {
  ShortRun run{data::first_examples(fashion(true), 256), data::first_examples(fashion(false), 200),
               {}};
  run.options.batch = 16;
  run.options.steps_max = 6;
  return run;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

void expect_same_training(const std::vector<TrainResult>& got,
                          const std::vector<TrainResult>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t r = 0; r < got.size(); ++r) {
    EXPECT_EQ(got[r].losses, want[r].losses) << what << ", rank " << r;
    EXPECT_TRUE(same_bits(got[r].weights, want[r].weights)) << what << ", rank " << r;
    EXPECT_TRUE(same_bits(got[r].buffers, want[r].buffers)) << what << ", rank " << r;
    EXPECT_EQ(got[r].test_accuracy, want[r].test_accuracy) << what << ", rank " << r;
  }
}

std::optional<std::size_t> first_apart_on_device(const std::vector<float>& got,
                                                 const std::vector<float>& want) {
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::abs(got[i] - want[i]) > 1e-4f + 1e-3f * std::abs(want[i])) return i;
  }
  return std::nullopt;
}

RankRuns run_on_ranks(const networks::Network& net, const designs::DesignConfig& config,
                      const data::LabelledImages& train, const data::LabelledImages* test,
                      const TrainOptions& options, std::uint32_t ranks, const RankSetup& setup) {
  comm::sim::SimWorld world(ranks, designs::step_comms(config));
  world.start_watchdog(std::chrono::milliseconds(50));
  RankRuns runs;
  runs.results.resize(ranks);
  runs.errors.resize(ranks);
  std::vector<std::thread> threads;
  for (dag::Rank r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      try {
        TrainOptions mine = options;
        const std::shared_ptr<void> kept = setup ? setup(r, world.rank(r), mine) : nullptr;
        runs.results[r] = train_rank(net, config, world.rank(r), train, test, mine, &world);
      } catch (const std::exception& e) {
        runs.errors[r] = e.what();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  return runs;
}

std::vector<TrainResult> train_on_ranks(const networks::Network& net,
                                        const designs::DesignConfig& config,
                                        const data::LabelledImages& train,
                                        const data::LabelledImages* test,
                                        const TrainOptions& options, std::uint32_t ranks,
                                        const RankSetup& setup) {
  RankRuns runs = run_on_ranks(net, config, train, test, options, ranks, setup);
  for (dag::Rank r = 0; r < ranks; ++r) EXPECT_EQ(runs.errors[r], "") << "rank " << r;
  return std::move(runs.results);
}

}  // namespace ordo::train
