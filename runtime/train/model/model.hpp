// A network's compute on libtorch, layer by layer as the step program runs it: forward(l) and
// backward(l) are what the engine ops fwd.<layer> and bwd.<layer> do. Built from a network that
// says what it computes (networks/layer_ops.hpp): each network layer is a chain of library
// layers, and its parameters come out in the network's key order with the network's names (an
// imported model's own), so the KVStore's keys, the step program's vars and the tensors are one
// list.
//
// Gradients of a layer's output that several layers read are summed: the consumer whose backward
// runs first (the latest layer, since backward runs in reverse) sets the gradient and the others
// add to it. In the step program each consumer's backward writes that var, so the engine runs
// them in that order and no two touch it at once.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "runtime/networks/network.hpp"
#include "runtime/train/layers/layer.hpp"
#include "runtime/train/layers/softmax_cross_entropy.hpp"

namespace ordo::train {

class Model {
 public:
  // Throws std::invalid_argument unless networks::computes(network) and its shapes fit.
  Model(const networks::Network& network, at::ScalarType dtype);
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;
  ~Model();

  std::size_t layers() const { return blocks_.size(); }
  const std::string& layer_name(std::size_t l) const { return network_.layers.at(l).name; }
  // Every parameter, in the network's key order.
  const std::vector<Param*>& params() const { return params_; }
  // Layer l's parameters are params()[first_param(l)] up to first_param(l + 1).
  std::size_t first_param(std::size_t l) const { return first_param_.at(l); }
  // Moves every parameter, gradient and buffer to `device` (a GPU): the layers then compute
  // wherever their inputs and parameters are. Drawn on the CPU first, the weights are the same
  // bits on every device.
  void to(const c10::Device& device);
  // Every library layer, for init_params and the running statistics.
  std::vector<Layer*> library_layers() const;
  // Layer l's state that is not a parameter (its batch norm's running mean and variance).
  std::vector<at::Tensor*> buffers(std::size_t l) const;

  // Layer l on the batch (layers without inputs) or its inputs' outputs.
  void forward(std::size_t l, const at::Tensor& batch, bool training);
  const at::Tensor& output(std::size_t l) const { return outputs_.at(l); }
  // The loss of the last layer's output against labels, and its gradient into that output's.
  at::Tensor loss_forward(const at::Tensor& labels);
  void loss_backward();
  // Layer l's backward from the gradient of its output: its parameters' grads, and its inputs'
  // output gradients (set or added, as above).
  void backward(std::size_t l);
  // The batch's gradient, for tests: kept only when asked for, since the backward ops of two
  // layers that read the batch may run at once (they only read the batch's var).
  void keep_batch_grad(bool keep) { keep_batch_grad_ = keep; }
  const at::Tensor& batch_grad() const { return batch_grad_; }

 private:
  struct Block;
  const networks::Network& network_;
  std::vector<std::unique_ptr<Block>> blocks_;
  std::vector<Param*> params_;
  std::vector<std::size_t> first_param_;  // per layer, and the count at the end
  std::vector<at::Tensor> outputs_;
  std::vector<at::Tensor> output_grads_;
  // Per layer and input slot: whether this layer's backward sets (true) or adds to the gradient.
  std::vector<std::vector<bool>> sets_grad_;
  at::Tensor batch_grad_;
  bool keep_batch_grad_ = false;
  SoftmaxCrossEntropy loss_;
};

}  // namespace ordo::train
