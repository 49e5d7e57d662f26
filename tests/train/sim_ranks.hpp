// Training on simulated ranks in one process, for the trainer's tests: each rank on its own
// thread, as each would be its own process under mpirun.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/comm/communicator.hpp"

#include "runtime/data/labelled_images.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/networks/network.hpp"
#include "runtime/train/train_run.hpp"

namespace ordo::train {

// Debian's Fashion-MNIST, read once.
const data::LabelledImages& fashion(bool train);

// A small network for Fashion-MNIST that has every kind of state: convolutions with batch norm
// (running statistics besides the parameters) and a dense classifier.
networks::Network small_cnn();

// One design under a name, for tests that run a path under every kind of design.
struct DesignCase {
  const char* name;
  designs::DesignConfig config;
};
// A design that reduces in place (depcha), one whose main thread issues the calls (funnel), one
// that copies into buckets (fused, with copy buffers and 1 KiB buckets) and one whose allgather
// writes the weights (sharded, over 2 ranks).
std::vector<DesignCase> design_cases();

// What the tests that hold one path to another train: six steps of 16 images a rank from the
// first 256 training images, evaluated on the first 200 test images.
struct ShortRun {
  data::LabelledImages train;
  data::LabelledImages test;
  TrainOptions options;
};
ShortRun short_run();

// Whether two runs' figures are the same bits.
bool same_bits(const std::vector<float>& a, const std::vector<float>& b);
// Two runs of the same ranks trained the same bits: losses, weights, batch norm statistics and
// test accuracies, rank by rank (gtest expectations, naming `what`).
void expect_same_training(const std::vector<TrainResult>& got,
                          const std::vector<TrainResult>& want, const std::string& what);
// The first element where a GPU run's `got` is not within float tolerance of a CPU run's `want`
// (summation orders differ between their kernels), if any.
std::optional<std::size_t> first_apart_on_device(const std::vector<float>& got,
                                                 const std::vector<float>& want);

struct RankRuns {
  std::vector<TrainResult> results;
  std::vector<std::string> errors;  // per rank, empty when it finished
};

// Called on each rank's thread before it trains, to give that rank options of its own (vars in a
// memory of its own, say). What it returns is kept until the rank has finished.
using RankSetup = std::function<std::shared_ptr<void>(dag::Rank, comm::World&, TrainOptions&)>;

RankRuns run_on_ranks(const networks::Network& net, const designs::DesignConfig& config,
                      const data::LabelledImages& train, const data::LabelledImages* test,
                      const TrainOptions& options, std::uint32_t ranks,
                      const RankSetup& setup = nullptr);

// run_on_ranks, expecting every rank to finish.
std::vector<TrainResult> train_on_ranks(const networks::Network& net,
                                        const designs::DesignConfig& config,
                                        const data::LabelledImages& train,
                                        const data::LabelledImages* test,
                                        const TrainOptions& options, std::uint32_t ranks,
                                        const RankSetup& setup = nullptr);

}  // namespace ordo::train
