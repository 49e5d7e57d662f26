#include "runtime/train/step_compute.hpp"

#include <ATen/ops/argmax.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/zeros_like.h>

#include <cstring>
#include <stdexcept>
#include <string_view>

#include "runtime/designs/design_config.hpp"
#include "runtime/train/training_device.hpp"

namespace ordo::train {

namespace {

// The var's memory as a tensor of `like`'s shape and type on `device`, where the var's bytes are.
at::Tensor view_of(exec::Buffers& buffers, dag::VarId var, const at::Tensor& like,
                   const c10::Device& device) {
  const std::span<std::byte> bytes = buffers.bytes(var);
  const auto need = static_cast<std::size_t>(like.numel() * like.element_size());
  if (bytes.size() != need) {
    throw std::logic_error("var '" + buffers.var(var).name + "' has " +
                           std::to_string(bytes.size()) + " bytes for a tensor of " +
                           std::to_string(need));
  }
  return at::from_blob(bytes.data(), like.sizes(), like.options().device(device));
}

// Elements [from, to) of a tensor seen flat.
at::Tensor block_of(const at::Tensor& t, std::int64_t from, std::int64_t to) {
  return t.view({t.numel()}).narrow(0, from, to - from);
}

std::size_t index_in(const std::map<std::string, std::size_t>& map, std::string_view name,
                     const dag::Op& op) {
  const auto it = map.find(std::string(name));
  if (it == map.end()) {
    throw std::logic_error("compute op '" + op.name + "' names '" + std::string(name) +
                           "', which the model does not have");
  }
  return it->second;
}

}  // namespace

StepCompute::StepCompute(Model& model, const designs::StepEmitter& emitter, exec::Buffers& buffers,
                         SgdConfig sgd, Placement placement)
    : model_(model), placement_(placement), sgd_(sgd) {
  if (!placement.device.is_cpu() && !placement.staged && buffers.host_visible()) {
    throw std::invalid_argument("parameters on " + placement.device.str() +
                                " cannot be views of the KVStore's host buffers; stage them, or "
                                "put the vars in that device's memory");
  }
  // Staged, the views are of host memory; otherwise of the vars where they are.
  const c10::Device views = placement.staged ? c10::Device(c10::DeviceType::CPU) : placement.device;
  const std::vector<Param*>& params = model.params();
  const std::vector<designs::KeyVars>& keys = emitter.keys();
  if (params.size() != keys.size()) {
    throw std::logic_error("the model has " + std::to_string(params.size()) + " parameters for " +
                           std::to_string(keys.size()) + " keys");
  }
  for (std::size_t i = 0; i < keys.size(); ++i) {
    Param& p = *params[i];
    if (p.name != keys[i].name) {
      throw std::logic_error("key " + std::to_string(i) + " is '" + keys[i].name +
                             "', the model's parameter is '" + p.name + "'");
    }
    const at::Tensor weight = view_of(buffers, keys[i].weight, p.value, views);
    weight.copy_(p.value);
    if (placement.staged) {
      weight_vars_.push_back(weight);
      grad_vars_.push_back(view_of(buffers, keys[i].grad, p.grad, views));
      // The initial broadcast writes every weight var before the first forward reads it.
      weight_var_newer_.push_back(1);
    } else {
      p.value = weight;
      p.grad = view_of(buffers, keys[i].grad, p.grad, views);
    }
    velocity_.push_back(at::zeros_like(p.value));
    param_of_[p.name] = i;
  }
  for (std::size_t l = 0; l < model.layers(); ++l) layer_of_[model.layer_name(l)] = l;
  // The initial broadcast reads the weight vars on a stream of its own.
  wait_for_stream(placement.device);
}

void StepCompute::set_batch_source(BatchSource source, std::uint64_t first_step) {
  source_ = std::move(source);
  next_step_ = first_step;
}

StepInputs StepCompute::on_device(StepInputs inputs) const {
  if (placement_.device.is_cpu()) return inputs;
  if (inputs.images.defined()) inputs.images = inputs.images.to(placement_.device);
  if (inputs.labels.defined()) inputs.labels = inputs.labels.to(placement_.device);
  return inputs;
}

void StepCompute::set_inputs(StepInputs inputs) { inputs_ = on_device(std::move(inputs)); }

void StepCompute::set_step(double learning_rate, std::string prefix) {
  inputs_.learning_rate = learning_rate;
  inputs_.prefix = std::move(prefix);
}

void StepCompute::run_data(const dag::Op& op, std::string_view name) {
  if (name == "data.load" || name == "init.data.load") {
    if (!source_) throw std::logic_error("'" + op.name + "' runs with no batch source set");
    // On the data pool: the batch goes to the device while the step before computes.
    next_ = on_device(source_(next_step_++));
  } else if (name == "data.take") {
    inputs_.images = std::move(next_.images);
    inputs_.labels = std::move(next_.labels);
    next_ = StepInputs{};
  } else {
    throw std::logic_error("data op '" + op.name + "' is not an op of the input pipeline");
  }
}

void StepCompute::run(const dag::Op& op) {
  // The designs' fences run on other pools and compute nothing of ours.
  if (op.pool != designs::compute_pool && op.pool != designs::data_pool) return;
  std::string_view name = op.name;
  if (name.substr(0, inputs_.prefix.size()) != inputs_.prefix) {
    throw std::logic_error("compute op '" + op.name + "' is not an op of step '" + inputs_.prefix +
                           "'");
  }
  name.remove_prefix(inputs_.prefix.size());
  if (op.pool == designs::data_pool) return run_data(op, name);
  if (name.substr(0, 4) == "fwd.") {
    const std::size_t l = index_in(layer_of_, name.substr(4), op);
    if (placement_.staged) weights_in(l);
    model_.forward(l, inputs_.images, true);
  } else if (name.substr(0, 4) == "bwd.") {
    const std::size_t l = index_in(layer_of_, name.substr(4), op);
    model_.backward(l);
    if (placement_.staged) grads_out(l);
  } else if (name == "loss") {
    const double loss = model_.loss_forward(inputs_.labels).item<double>();
    const auto correct =
        static_cast<std::uint64_t>(at::argmax(model_.output(model_.layers() - 1), 1)
                                       .eq(inputs_.labels)
                                       .sum()
                                       .item<std::int64_t>());
    model_.loss_backward();
    const std::lock_guard lock(loss_mutex_);
    loss_ = loss;
    correct_ = correct;
  } else if (name.substr(0, 7) == "update.") {
    const std::size_t i = index_in(param_of_, name.substr(7), op);
    Param& p = *model_.params()[i];
    if (placement_.staged) p.grad.copy_(grad_vars_[i]);  // the reduced gradient in
    sgd_update(p.value, p.grad, velocity_[i], inputs_.learning_rate, sgd_);
  } else if (name.substr(0, 13) == "update_shard.") {
    update_shard(index_in(param_of_, name.substr(13), op));
  } else {
    throw std::logic_error("compute op '" + op.name + "' is not an op of the training step");
  }
}

void StepCompute::update_shard(std::size_t i) {
  Param& p = *model_.params()[i];
  // Element-wise, so the block's new values are bit for bit what a whole update gives them.
  const std::int64_t n = p.value.numel();
  const std::int64_t from = n * shard_rank_ / shard_ranks_;
  const std::int64_t to = n * (shard_rank_ + 1) / shard_ranks_;
  at::Tensor weight = block_of(p.value, from, to);
  at::Tensor velocity = block_of(velocity_[i], from, to);
  at::Tensor grad = block_of(p.grad, from, to);
  if (placement_.staged) grad.copy_(block_of(grad_vars_[i], from, to));
  sgd_update(weight, grad, velocity, inputs_.learning_rate, sgd_);
  if (placement_.staged) {
    // This rank's block out for the allgather, which then brings the others' into the var.
    block_of(weight_vars_[i], from, to).copy_(weight);
    weight_var_newer_[i] = 1;
  }
}

void StepCompute::weights_in(std::size_t l) {
  const std::vector<Param*>& params = model_.params();
  for (std::size_t i = model_.first_param(l); i < model_.first_param(l + 1); ++i) {
    if (weight_var_newer_[i] == 0) continue;
    params[i]->value.copy_(weight_vars_[i]);
    weight_var_newer_[i] = 0;
  }
}

void StepCompute::grads_out(std::size_t l) {
  const std::vector<Param*>& params = model_.params();
  for (std::size_t i = model_.first_param(l); i < model_.first_param(l + 1); ++i) {
    grad_vars_[i].copy_(params[i]->grad);
  }
}

void StepCompute::settle_parameters() {
  if (!placement_.staged) return;
  for (std::size_t l = 0; l < model_.layers(); ++l) weights_in(l);
}

void StepCompute::publish_parameters() {
  // Direct views: the parameters were written in place, on this thread's stream, which the
  // initial broadcast does not wait for.
  if (!placement_.staged) return wait_for_stream(placement_.device);
  const std::vector<Param*>& params = model_.params();
  for (std::size_t i = 0; i < params.size(); ++i) weight_vars_[i].copy_(params[i]->value);
}

void StepCompute::set_shard(std::uint32_t rank, std::uint32_t ranks) {
  if (ranks == 0 || rank >= ranks) {
    throw std::invalid_argument("shard " + std::to_string(rank) + " of " + std::to_string(ranks));
  }
  shard_rank_ = rank;
  shard_ranks_ = ranks;
}

double StepCompute::last_loss() const {
  const std::lock_guard lock(loss_mutex_);
  return loss_;
}

std::uint64_t StepCompute::last_correct() const {
  const std::lock_guard lock(loss_mutex_);
  return correct_;
}

}  // namespace ordo::train
