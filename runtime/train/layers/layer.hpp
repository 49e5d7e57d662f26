// The trainer's layer library: each layer's forward and backward as separate calls, because in
// MXNet's execution model (and ordo's) they are separate engine ops that declare what they read
// and write. No autograd: backward is the layer's own, from ATen's backward kernels (the same
// kernels autograd would call), and it writes the gradients of the layer's parameters, which the
// KVStore then reduces by key. Tests hold every backward to autograd on whole networks.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ordo::train {

// What a parameter is to its layer, which decides how it is drawn (init.hpp): its name is the
// network's key, which an imported model chooses.
enum class ParamRole : std::uint8_t { weight, bias, scale, shift };

// A parameter and its gradient, of one shape. The trainer may point both at memory it owns (the
// KVStore's buffers) with bind(); a layer only reads and writes through them.
struct Param {
  std::string name;
  at::Tensor value;
  at::Tensor grad;
  ParamRole role = ParamRole::weight;
};

class Layer {
 public:
  virtual ~Layer() = default;
  // The output for these inputs; in training mode keeps what backward needs (overwritten by the
  // next forward: one step in flight per layer, as the step program orders it).
  virtual at::Tensor forward(const std::vector<at::Tensor>& inputs, bool training) = 0;
  // The gradients of the inputs of the last training forward, one per input, given the gradient of
  // its output; sets every parameter's grad (overwrites, never accumulates).
  virtual std::vector<at::Tensor> backward(const at::Tensor& grad_output) = 0;
  virtual std::vector<Param*> params() { return {}; }
  // State that is not a parameter and is not reduced: batch norm's running statistics, which
  // MXNet keeps per rank.
  virtual std::vector<at::Tensor*> buffers() { return {}; }
};

}  // namespace ordo::train
