#include "tests/train/sim_ranks.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "runtime/comm/sim/sim_world.hpp"

namespace ordo::train {

const data::LabelledImages& fashion(bool train) {
  static const data::LabelledImages sets[2] = {
      data::read_fashion_mnist(data::fashion_mnist_dir_default, false),
      data::read_fashion_mnist(data::fashion_mnist_dir_default, true)};
  return sets[train ? 1 : 0];
}

RankRuns run_on_ranks(const networks::Network& net, const designs::DesignConfig& config,
                      const data::LabelledImages& train, const data::LabelledImages* test,
                      const TrainOptions& options, std::uint32_t ranks) {
  comm::sim::SimWorld world(ranks, designs::step_comms(config));
  world.start_watchdog(std::chrono::milliseconds(50));
  RankRuns runs;
  runs.results.resize(ranks);
  runs.errors.resize(ranks);
  std::vector<std::thread> threads;
  for (dag::Rank r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      try {
        runs.results[r] = train_rank(net, config, world.rank(r), train, test, options, &world);
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
                                        const TrainOptions& options, std::uint32_t ranks) {
  RankRuns runs = run_on_ranks(net, config, train, test, options, ranks);
  for (dag::Rank r = 0; r < ranks; ++r) EXPECT_EQ(runs.errors[r], "") << "rank " << r;
  return std::move(runs.results);
}

}  // namespace ordo::train
