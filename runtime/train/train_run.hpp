// Data-parallel training on one rank, live: the step emitter drives the chosen design on an
// executor whose compute ops run the model (step_compute.hpp), on this rank's shard of the data.
// Every rank of the world calls it with the same arguments; the step program is the one
// `ordo step-dag` writes for the network and design, one step at a time.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/data/labelled_images.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/networks/network.hpp"
#include "runtime/train/sgd.hpp"

namespace ordo::train {

struct TrainOptions {
  std::uint32_t batch = 64;  // per rank
  std::uint32_t epochs = 1;
  std::uint32_t steps_max = 0;  // stop after this many steps (0: whole epochs)
  std::uint64_t seed = 1;       // initial weights and every epoch's shuffle
  LrSchedule lr;
  SgdConfig sgd;         // rescale is set to 1 / ranks
  bool evaluate = true;  // test accuracy after every epoch, when a test set is given
  bool record = false;   // keep the program submitted to the engine (TrainResult::program)
};

struct TrainResult {
  std::vector<double> losses;         // this rank's loss at every step
  std::vector<double> test_accuracy;  // after every epoch
  std::vector<float> weights;         // every parameter at the end, in key order
  std::uint64_t images = 0;           // trained on this rank
  double seconds = 0.0;               // of the training steps
  // With TrainOptions::record, what this rank submitted to its engine, as the engine recorded it:
  // the step builder's job for the network and design with the initial broadcast and as many
  // steps as were trained (designs::build_step_job), action for action.
  dag::Job program;
};

// Throws std::invalid_argument when the network does not say what it computes, its input shape
// is not the images', or the shard gives no full batch; and what the runtime throws.
TrainResult train_rank(const networks::Network& network, const designs::DesignConfig& config,
                       comm::World& world, const data::LabelledImages& train,
                       const data::LabelledImages* test, const TrainOptions& options,
                       comm::sim::SimWorld* sim = nullptr);

}  // namespace ordo::train
