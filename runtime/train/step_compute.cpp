#include "runtime/train/step_compute.hpp"

#include <ATen/ops/argmax.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/zeros_like.h>

#include <cstring>
#include <stdexcept>
#include <string_view>

#include "runtime/designs/design_config.hpp"

namespace ordo::train {

namespace {

at::Tensor view_of(exec::Buffers& buffers, dag::VarId var, const at::Tensor& like) {
  const std::span<std::byte> bytes = buffers.bytes(var);
  const auto need = static_cast<std::size_t>(like.numel() * like.element_size());
  if (bytes.size() != need) {
    throw std::logic_error("var '" + buffers.var(var).name + "' has " +
                           std::to_string(bytes.size()) + " bytes for a tensor of " +
                           std::to_string(need));
  }
  return at::from_blob(bytes.data(), like.sizes(), like.options());
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
                         SgdConfig sgd)
    : model_(model), sgd_(sgd) {
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
    const at::Tensor weight = view_of(buffers, keys[i].weight, p.value);
    weight.copy_(p.value);
    p.value = weight;
    p.grad = view_of(buffers, keys[i].grad, p.grad);
    velocity_.push_back(at::zeros_like(p.value));
    param_of_[p.name] = i;
  }
  for (std::size_t l = 0; l < model.layers(); ++l) layer_of_[model.layer_name(l)] = l;
}

void StepCompute::set_batch_source(BatchSource source, std::uint64_t first_step) {
  source_ = std::move(source);
  next_step_ = first_step;
}

void StepCompute::set_step(double learning_rate, std::string prefix) {
  inputs_.learning_rate = learning_rate;
  inputs_.prefix = std::move(prefix);
}

void StepCompute::run_data(const dag::Op& op, std::string_view name) {
  if (name == "data.load" || name == "init.data.load") {
    if (!source_) throw std::logic_error("'" + op.name + "' runs with no batch source set");
    next_ = source_(next_step_++);
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
    model_.forward(index_in(layer_of_, name.substr(4), op), inputs_.images, true);
  } else if (name.substr(0, 4) == "bwd.") {
    model_.backward(index_in(layer_of_, name.substr(4), op));
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
    sgd_update(p.value, p.grad, velocity_[i], inputs_.learning_rate, sgd_);
  } else if (name.substr(0, 13) == "update_shard.") {
    const std::size_t i = index_in(param_of_, name.substr(13), op);
    Param& p = *model_.params()[i];
    // Element-wise, so the block's new values are bit for bit what a whole update gives them.
    const std::int64_t n = p.value.numel();
    const std::int64_t from = n * shard_rank_ / shard_ranks_;
    const std::int64_t to = n * (shard_rank_ + 1) / shard_ranks_;
    at::Tensor weight = p.value.view({n}).narrow(0, from, to - from);
    at::Tensor velocity = velocity_[i].view({n}).narrow(0, from, to - from);
    sgd_update(weight, p.grad.view({n}).narrow(0, from, to - from), velocity, inputs_.learning_rate,
               sgd_);
  } else {
    throw std::logic_error("compute op '" + op.name + "' is not an op of the training step");
  }
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
