// What the step program's compute ops do when the trainer runs it: the executor's compute hook,
// which maps each op the step emitter wrote (fwd.<layer>, loss, bwd.<layer>, update.<key>, and the
// sharded design's update_shard.<key>, the update of this rank's block of the key) to the
// model's call. Parameters and gradients live in the executor's buffers (the vars the KVStore
// reduces), and the model's tensors are views of them, so what the collectives sum is exactly
// what backward wrote and what the update reads.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/designs/step_emitter.hpp"
#include "runtime/exec/buffers.hpp"
#include "runtime/train/model.hpp"
#include "runtime/train/sgd.hpp"

namespace ordo::train {

// One step's inputs, set by the main thread between steps (the step program ends with a
// wait_for_all, so no op of the step reads them while they change).
struct StepInputs {
  at::Tensor images;  // [batch, ...the network's input shape], float
  at::Tensor labels;  // [batch], int64
  double learning_rate = 0.1;
  std::string prefix;  // the step's op-name prefix, as given to StepEmitter::emit_step
};

class StepCompute {
 public:
  // Binds every parameter of `model` to its key's weight and gradient vars in `buffers`, after
  // copying the model's current values into the weight vars. The keys must be the model's
  // parameters in order (one builder gives both); throws std::logic_error when they are not.
  StepCompute(Model& model, const designs::StepEmitter& emitter, exec::Buffers& buffers,
              SgdConfig sgd);

  void set_inputs(StepInputs inputs) { inputs_ = std::move(inputs); }
  // With prefetch (DesignConfig::prefetch) the step's data ops bring images and labels: the main
  // thread sets only the rate and the prefix, and the k-th data.load op fills in
  // `source(first_step + k)`, which the next data.take hands to the step.
  using BatchSource = std::function<StepInputs(std::uint64_t step)>;
  void set_batch_source(BatchSource source, std::uint64_t first_step);
  void set_step(double learning_rate, std::string prefix);
  // Which block of each key an update_shard op steps (the sharded design's): block `rank` of
  // `ranks`, block i being elements [i * n / ranks, (i + 1) * n / ranks) of the flat key.
  void set_shard(std::uint32_t rank, std::uint32_t ranks);
  // The executor's compute hook: op names carry the step's prefix ("s3.fwd.conv1"). Throws
  // std::logic_error for a compute op on the compute pool that is not an op of this step.
  void run(const dag::Op& op);
  // The loss of the last step's loss op, and how many of its batch's images the network
  // classified right.
  double last_loss() const;
  std::uint64_t last_correct() const;
  // Every parameter's momentum buffer, in key order: what a checkpoint saves and restores.
  std::vector<at::Tensor>& velocities() { return velocity_; }

 private:
  void run_data(const dag::Op& op, std::string_view name);

  Model& model_;
  StepInputs inputs_;
  BatchSource source_;
  std::uint64_t next_step_ = 0;  // the step the next data.load loads
  StepInputs next_;              // what data.load loaded and data.take has not taken
  SgdConfig sgd_;
  std::map<std::string, std::size_t> layer_of_;
  std::map<std::string, std::size_t> param_of_;
  std::vector<at::Tensor> velocity_;  // per parameter
  std::uint32_t shard_rank_ = 0;
  std::uint32_t shard_ranks_ = 1;
  mutable std::mutex loss_mutex_;
  double loss_ = 0.0;
  std::uint64_t correct_ = 0;
};

}  // namespace ordo::train
