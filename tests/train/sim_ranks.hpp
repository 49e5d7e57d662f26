// Training on simulated ranks in one process, for the trainer's tests: each rank on its own
// thread, as each would be its own process under mpirun.
#pragma once

#include <string>
#include <vector>

#include "runtime/data/labelled_images.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/networks/network.hpp"
#include "runtime/train/train_run.hpp"

namespace ordo::train {

// Debian's Fashion-MNIST, read once.
const data::LabelledImages& fashion(bool train);

struct RankRuns {
  std::vector<TrainResult> results;
  std::vector<std::string> errors;  // per rank, empty when it finished
};

RankRuns run_on_ranks(const networks::Network& net, const designs::DesignConfig& config,
                      const data::LabelledImages& train, const data::LabelledImages* test,
                      const TrainOptions& options, std::uint32_t ranks);

// run_on_ranks, expecting every rank to finish.
std::vector<TrainResult> train_on_ranks(const networks::Network& net,
                                        const designs::DesignConfig& config,
                                        const data::LabelledImages& train,
                                        const data::LabelledImages* test,
                                        const TrainOptions& options, std::uint32_t ranks);

}  // namespace ordo::train
