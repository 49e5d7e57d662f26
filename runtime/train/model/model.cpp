#include "runtime/train/model/model.hpp"

#include <stdexcept>
#include <string>

#include "runtime/networks/shapes.hpp"
#include "runtime/train/layers/batch_norm.hpp"
#include "runtime/train/layers/bias.hpp"
#include "runtime/train/layers/conv2d.hpp"
#include "runtime/train/layers/dense.hpp"
#include "runtime/train/layers/elementwise.hpp"
#include "runtime/train/layers/pooling.hpp"

namespace ordo::train {

namespace {

using networks::OpKind;
using networks::Shape;

std::int64_t i64(std::uint64_t v) { return static_cast<std::int64_t>(v); }

}  // namespace

// One network layer: an optional join of its inputs, then a chain of library layers.
struct Model::Block {
  std::unique_ptr<Layer> join;
  std::vector<std::unique_ptr<Layer>> chain;
  std::size_t inputs = 1;

  at::Tensor forward(const std::vector<at::Tensor>& ins, bool training) {
    at::Tensor x = join ? join->forward(ins, training) : ins.at(0);
    for (const auto& layer : chain) x = layer->forward({x}, training);
    return x;
  }

  std::vector<at::Tensor> backward(at::Tensor dy) {
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) dy = (*it)->backward(dy)[0];
    if (join) return join->backward(dy);
    return {dy};
  }
};

Model::Model(const networks::Network& network, at::ScalarType dtype) : network_(network) {
  const networks::LayerShapes shapes = networks::infer_shapes(network);
  const std::vector<std::vector<Shape>> ins = networks::layer_inputs(network, shapes.outputs);
  for (std::size_t l = 0; l < network.layers.size(); ++l) {
    const networks::Layer& nl = network.layers[l];
    auto block = std::make_unique<Block>();
    block->inputs = ins[l].size();
    Shape x = ins[l][0];
    for (std::size_t k = 0; k < nl.ops.size(); ++k) {
      const networks::LayerOp& op = nl.ops[k];
      std::unique_ptr<Layer> layer;
      switch (op.kind) {
        case OpKind::add:
          block->join = std::make_unique<Add>();
          break;
        case OpKind::concat:
          block->join = std::make_unique<Concat>();
          break;
        case OpKind::dense: {
          std::uint64_t features = 1;
          for (std::uint64_t d : x) features *= d;
          if (x.size() > 1) block->chain.push_back(std::make_unique<Flatten>());
          layer = std::make_unique<Dense>(nl.name, i64(features), op.units, dtype);
          break;
        }
        case OpKind::conv:
          layer = std::make_unique<Conv2d>(
              nl.name, ConvShape{i64(x.at(0)), op.units, op.kernel, op.stride, op.padding}, dtype);
          break;
        case OpKind::batch_norm:
          layer = std::make_unique<BatchNorm>(nl.name + ".bn", i64(x.at(0)), dtype);
          break;
        case OpKind::relu:
          layer = std::make_unique<Relu>();
          break;
        case OpKind::max_pool:
          layer = std::make_unique<MaxPool>(PoolShape{op.kernel, op.stride, op.padding});
          break;
        case OpKind::avg_pool:
          layer = std::make_unique<AvgPool>(PoolShape{op.kernel, op.stride, op.padding});
          break;
        case OpKind::global_avg_pool:
          layer = std::make_unique<GlobalAvgPool>();
          break;
        case OpKind::pad_shortcut:
          layer = std::make_unique<PadShortcut>(op.units, op.stride);
          break;
        case OpKind::bias:
          layer = std::make_unique<Bias>(nl.name, i64(x.at(0)), dtype);
          break;
        case OpKind::flatten:
          if (x.size() > 1) layer = std::make_unique<Flatten>();
          break;
        case OpKind::identity:
          layer = std::make_unique<Identity>();
          break;
      }
      // Follow the shape through this op (walk_layer over the prefix of the chain).
      x = networks::walk_layer(
              nl.name, {nl.ops.begin(), nl.ops.begin() + static_cast<std::ptrdiff_t>(k) + 1},
              ins[l])
              .output;
      if (layer) block->chain.push_back(std::move(layer));
    }
    first_param_.push_back(params_.size());
    std::vector<Param*> own;
    for (const auto& layer : block->chain) {
      for (Param* p : layer->params()) own.push_back(p);
    }
    if (own.size() != nl.params.size()) {
      throw std::logic_error("layer '" + nl.name + "': the library built " +
                             std::to_string(own.size()) + " parameters for " +
                             std::to_string(nl.params.size()) + " keys");
    }
    // The network's names are the keys (check_network has held them to the ops by position and
    // size): the tensors take them, so a model keeps its framework's parameter names.
    for (std::size_t i = 0; i < own.size(); ++i) {
      if (static_cast<std::uint64_t>(own[i]->value.numel()) != nl.params[i].count) {
        throw std::logic_error("layer '" + nl.name + "': parameter " + own[i]->name +
                               " does not match key " + nl.params[i].name);
      }
      own[i]->name = nl.params[i].name;
      params_.push_back(own[i]);
    }
    blocks_.push_back(std::move(block));
  }
  first_param_.push_back(params_.size());
  outputs_.resize(blocks_.size());
  output_grads_.resize(blocks_.size());
  // Backward runs from the last layer down: the first consumer met going down sets.
  std::vector<bool> seen(blocks_.size(), false);
  bool batch_seen = false;
  sets_grad_.resize(blocks_.size());
  for (std::size_t l = blocks_.size(); l-- > 0;) {
    const networks::Layer& nl = network.layers[l];
    if (nl.inputs.empty()) {
      sets_grad_[l] = {!batch_seen};
      batch_seen = true;
      continue;
    }
    for (std::uint32_t in : nl.inputs) {
      sets_grad_[l].push_back(!seen[in]);
      seen[in] = true;
    }
  }
}

Model::~Model() = default;

std::vector<Layer*> Model::library_layers() const {
  std::vector<Layer*> all;
  for (const auto& b : blocks_) {
    if (b->join) all.push_back(b->join.get());
    for (const auto& layer : b->chain) all.push_back(layer.get());
  }
  return all;
}

void Model::to(const c10::Device& device) {
  for (Param* p : params_) {
    p->value = p->value.to(device);
    p->grad = p->grad.to(device);
  }
  for (Layer* layer : library_layers()) {
    for (at::Tensor* t : layer->buffers()) *t = t->to(device);
  }
}

std::vector<at::Tensor*> Model::buffers(std::size_t l) const {
  std::vector<at::Tensor*> all;
  for (const auto& layer : blocks_.at(l)->chain) {
    for (at::Tensor* t : layer->buffers()) all.push_back(t);
  }
  return all;
}

void Model::forward(std::size_t l, const at::Tensor& batch, bool training) {
  const networks::Layer& nl = network_.layers.at(l);
  std::vector<at::Tensor> ins;
  if (nl.inputs.empty()) ins.push_back(batch);
  for (std::uint32_t in : nl.inputs) ins.push_back(outputs_.at(in));
  outputs_[l] = blocks_[l]->forward(ins, training);
}

at::Tensor Model::loss_forward(const at::Tensor& labels) {
  return loss_.forward(outputs_.back(), labels);
}

void Model::loss_backward() { output_grads_.back() = loss_.backward(); }

void Model::backward(std::size_t l) {
  const networks::Layer& nl = network_.layers.at(l);
  const std::vector<at::Tensor> grads = blocks_[l]->backward(output_grads_.at(l));
  const auto deliver = [&](at::Tensor& into, const at::Tensor& g, bool sets) {
    if (sets) {
      into = g.clone();  // a later add must not write through to a tensor another op holds
    } else {
      into.add_(g);
    }
  };
  if (nl.inputs.empty()) {
    if (keep_batch_grad_) deliver(batch_grad_, grads.at(0), sets_grad_[l][0]);
    return;
  }
  for (std::size_t i = 0; i < nl.inputs.size(); ++i) {
    deliver(output_grads_[nl.inputs[i]], grads.at(i), sets_grad_[l][i]);
  }
}

}  // namespace ordo::train
