// What the step program's compute ops do when the trainer runs it: the executor's compute hook,
// which maps each op the step emitter wrote (fwd.<layer>, loss, bwd.<layer>, update.<key>, and the
// sharded design's update_shard.<key>, the update of this rank's block of the key) to the
// model's call. Parameters and gradients live in the executor's buffers (the vars the KVStore
// reduces), and the model's tensors are views of them, so what the collectives sum is exactly
// what backward wrote and what the update reads.
//
// On a GPU the parameters and gradients are views of vars in the device's memory when the
// executor places its vars there (exec::VarMemory, docs/gpu.md "Training on device gradients"):
// the collectives reduce them where they are, over NCCL, staged or CUDA-aware MPI. Otherwise
// (Placement::staged) the parameters, their gradients and momenta live on the device and the
// buffers stay the host memory the KVStore's collectives use: the staged path, at the trainer's
// level. Each backward op copies its layer's gradients into their vars at its end;
// each update op copies the reduced gradient in at its start. The weight vars are what the
// collectives that write weights (the initial broadcast, sharded's allgather) deliver: a layer's
// forward first copies in those its weights were last written by, and sharded's update copies its
// own block out for the allgather. Each copy is a synchronous one, so an op's vars hold the
// values when it completes, as the engine's rules assume.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/designs/step_emitter.hpp"
#include "runtime/exec/buffers.hpp"
#include "runtime/train/model/model.hpp"
#include "runtime/train/model/sgd.hpp"

namespace ordo::train {

// One step's inputs, set by the main thread between steps (the step program ends with a
// wait_for_all, so no op of the step reads them while they change).
struct StepInputs {
  at::Tensor images;  // [batch, ...the network's input shape], float
  at::Tensor labels;  // [batch], int64
  double learning_rate = 0.1;
  std::string prefix;  // the step's op-name prefix, as given to StepEmitter::emit_step
};

// Where the model computes, and whether its parameters are apart from the buffers.
struct Placement {
  c10::Device device = c10::Device(c10::DeviceType::CPU);  // where the model and batches are
  // The parameters apart from the buffers, with copies between them (above). Required off the
  // CPU where the buffers are host memory; on the CPU only to test that path where there is no
  // GPU. Without it the parameters are views of the vars, which must then be memory of `device`.
  bool staged = false;
};

class StepCompute {
 public:
  // Binds every parameter of `model` to its key's weight and gradient vars in `buffers`, after
  // copying the model's current values into the weight vars. The keys must be the model's
  // parameters in order (one builder gives both); throws std::logic_error when they are not, and
  // std::invalid_argument for a device placement that is neither staged nor over vars the host
  // may not touch. The model must already be on `placement.device`.
  StepCompute(Model& model, const designs::StepEmitter& emitter, exec::Buffers& buffers,
              SgdConfig sgd, Placement placement = {});

  // Moves the batch to the placement's device.
  void set_inputs(StepInputs inputs);
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

  // Between steps, on the main thread (staged only; nothing to do otherwise). settle: the
  // model's parameters take the weight vars' values where a collective wrote them last, before
  // the model is read outside the step program (evaluation, a checkpoint, the result).
  // publish: the weight vars take the parameters' values, after they were set outside the step
  // program (a restored checkpoint), before the initial broadcast sends them.
  void settle_parameters();
  void publish_parameters();
  const Placement& placement() const { return placement_; }

 private:
  void run_data(const dag::Op& op, std::string_view name);
  StepInputs on_device(StepInputs inputs) const;
  // Staged: layer l's weights in from their vars where a collective wrote those last; its
  // gradients out to their vars.
  void weights_in(std::size_t l);
  void grads_out(std::size_t l);
  void update_shard(std::size_t i);

  Model& model_;
  Placement placement_;
  StepInputs inputs_;
  BatchSource source_;
  std::uint64_t next_step_ = 0;  // the step the next data.load loads
  StepInputs next_;              // what data.load loaded and data.take has not taken
  SgdConfig sgd_;
  std::map<std::string, std::size_t> layer_of_;
  std::map<std::string, std::size_t> param_of_;
  std::vector<at::Tensor> velocity_;  // per parameter
  // Staged only, per parameter: views of its weight and gradient vars, and whether the weight
  // var holds newer values than the parameter. An element is touched only by ops that hold its
  // weight var (or by the main thread between steps), so the engine orders every access.
  std::vector<at::Tensor> weight_vars_;
  std::vector<at::Tensor> grad_vars_;
  std::vector<std::uint8_t> weight_var_newer_;
  std::uint32_t shard_rank_ = 0;
  std::uint32_t shard_ranks_ = 1;
  mutable std::mutex loss_mutex_;
  double loss_ = 0.0;
  std::uint64_t correct_ = 0;
};

}  // namespace ordo::train
