// Data-parallel training on one rank, live: the step emitter drives the chosen design on an
// executor whose compute ops run the model (step_compute.hpp), on this rank's shard of the data.
// Every rank of the world calls it with the same arguments; the step program is the one
// `ordo step-dag` writes for the network and design, one step at a time.
#pragma once

#include <c10/core/Device.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/data/labelled_images.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/engine/device_queue.hpp"
#include "runtime/exec/var_memory.hpp"
#include "runtime/networks/initial_values.hpp"
#include "runtime/networks/network.hpp"
#include "runtime/train/dataset.hpp"
#include "runtime/train/model/sgd.hpp"

namespace ordo::diag {
class FlightRecorder;
}  // namespace ordo::diag
namespace ordo::flight {
class TimelineLog;
}  // namespace ordo::flight

namespace ordo::train {

// Where checkpoints go (checkpoint/checkpoint_dir.hpp) and when: after every `every` steps and
// after the last step. `resume` continues from the latest committed checkpoint in `dir`.
struct CheckpointOptions {
  std::string dir;  // empty: no checkpoints
  std::uint64_t every = 0;
  bool resume = false;
};

// What a progress display needs after each step (rank 0's view; every rank gets its own).
struct StepReport {
  std::uint32_t epoch = 0;          // counted from 0
  std::uint32_t step_in_epoch = 0;  // steps of this epoch done, counted from 1
  std::uint32_t steps_per_epoch = 0;
  std::uint64_t step = 0;         // steps done in the whole training, resumed ones included
  std::uint64_t steps_total = 0;  // what the run will have done at its end
  double loss = 0.0;              // this rank's, this step
  double seconds = 0.0;           // in this run's steps (not evaluation or checkpoints)
  std::uint64_t images = 0;       // this rank's, since this run's first step
};

// An epoch's figures, the same on every rank: train loss and accuracy over every rank's images of
// the epoch (summed over the ranks at the epoch's end), and the test accuracy.
struct EpochReport {
  std::uint32_t epoch = 0;
  double train_loss = 0.0;
  double train_accuracy = 0.0;
  std::optional<double> test_accuracy;
  double seconds = 0.0;  // in this epoch's steps in this run
};

// The step program's vars in a device's memory (docs/gpu.md, "Training on device gradients"):
// the parameters and gradients are views of them, the world given here carries the collectives
// on them where they are (NCCL, staged or CUDA-aware MPI), and the compute pool's ops are device
// ops on `compute_queue`, which libtorch's kernels are launched on. The world given to
// train_rank still carries the host's own calls (the epoch's figures, checkpoint agreements).
// Each must outlive the run; `world` must have the step program's communicators and the same
// ranks; `memory` must be memory of TrainOptions::device, which the views are made on (checked:
// VarMemory::gpu against the device's index); and
// `compute_queue` must mark on the stream libtorch launches on there (its default stream).
struct DeviceVars {
  std::shared_ptr<exec::VarMemory> memory;
  comm::World* world = nullptr;
  engine::DeviceQueue* compute_queue = nullptr;
  // Optional: where the copy pool's ops (copy buffers, fused's buckets) put their copies, as
  // device ops of their own stream (VarMemory::enqueue_copy). Without it each copy op waits for
  // its copies on its pool thread.
  engine::DeviceQueue* copy_queue = nullptr;
};

struct TrainOptions {
  std::uint32_t batch = 64;  // per rank
  std::uint32_t epochs = 1;
  std::uint32_t steps_max = 0;  // stop after this many steps (0: whole epochs)
  std::uint64_t seed = 1;       // initial weights and every epoch's shuffle
  LrSchedule lr;
  // After these many epochs the rate is multiplied by lr.factor (epochs counted in steps, as
  // lr.milestones, with which they merge).
  std::vector<std::uint32_t> lr_decay_epochs;
  SgdConfig sgd;         // rescale is set to 1 / ranks
  bool evaluate = true;  // test accuracy after every epoch, when a test set is given
  CheckpointOptions checkpoint;
  std::function<void(const StepReport&)> on_step;
  std::function<void(const EpochReport&)> on_epoch;
  bool record = false;  // keep the program submitted to the engine (TrainResult::program)
  // Called on this rank's thread when the run fails, before anything is unwound (ordo train ends
  // the whole job there, since the other ranks may wait for this one in a collective).
  std::function<void(std::exception_ptr)> on_failure;
  // When set, the engine's state and the main thread's position are attached to it while the run
  // lasts, for a hang dump (docs/diagnostics.md). The world given must record into it.
  diag::FlightRecorder* recorder = nullptr;
  // When set, the engine logs every op and blocking wait into it (docs/diagnostics.md,
  // "Timeline"); it must outlive the run. The world given should log its collectives into it.
  flight::TimelineLog* timeline = nullptr;
  // When set, what the model file gives replaces the drawn initial values (rank 0's still
  // reach every rank by the initial broadcast).
  const networks::InitialValues* initial_values = nullptr;
  // Where the layers, the batches and the updates run (training_device.hpp). Off the CPU the
  // vars are on the device (device_vars), or else the gradients are staged through the
  // KVStore's host buffers (step_compute.hpp, docs/train.md).
  c10::Device device = c10::Device(c10::DeviceType::CPU);
  std::optional<DeviceVars> device_vars;
  // The staged path on the CPU as well: for the tests that hold it to the direct one where
  // there is no GPU.
  bool staged = false;
};

struct TrainResult {
  std::uint64_t first_step = 0;       // the step this run started from (resumed: not 0)
  std::vector<double> losses;         // this rank's loss at every step of this run
  std::vector<double> test_accuracy;  // after every epoch this run ended
  std::vector<EpochReport> epochs;
  std::vector<float> weights;  // every parameter at the end, in key order
  std::vector<float> buffers;  // every layer's per-rank state at the end (running stats)
  std::uint64_t images = 0;    // trained on this rank
  double seconds = 0.0;        // in the training steps
  // With TrainOptions::record, what this rank submitted to its engine, as the engine recorded it:
  // the step builder's job for the network and design with the initial broadcast and as many
  // steps as were trained (designs::build_step_job), action for action.
  dag::Job program;
};

// Throws std::invalid_argument when the network does not say what it computes, its input shape
// is not the examples', or the shard gives no full batch; checkpoint::CheckpointError when a
// resume finds no checkpoint or one that does not fit this run (on every rank: the ranks agree
// before any trains); and what the runtime throws.
TrainResult train_rank(const networks::Network& network, const designs::DesignConfig& config,
                       comm::World& world, const Dataset& train, const Dataset* test,
                       const TrainOptions& options, comm::sim::SimWorld* sim = nullptr);
// The same on Fashion-MNIST's images (normalised as fashion_mnist() does).
TrainResult train_rank(const networks::Network& network, const designs::DesignConfig& config,
                       comm::World& world, const data::LabelledImages& train,
                       const data::LabelledImages* test, const TrainOptions& options,
                       comm::sim::SimWorld* sim = nullptr);

}  // namespace ordo::train
