#include "runtime/train/layers/elementwise.hpp"

#include <ATen/ops/cat.h>
#include <ATen/ops/constant_pad_nd.h>
#include <ATen/ops/relu.h>
#include <ATen/ops/threshold_backward.h>
#include <ATen/ops/zeros.h>

#include <stdexcept>

namespace ordo::train {

at::Tensor Relu::forward(const std::vector<at::Tensor>& inputs, bool training) {
  at::Tensor y = at::relu(inputs.at(0));
  if (training) output_ = y;
  return y;
}

std::vector<at::Tensor> Relu::backward(const at::Tensor& grad_output) {
  return {at::threshold_backward(grad_output, output_, 0)};
}

at::Tensor Flatten::forward(const std::vector<at::Tensor>& inputs, bool training) {
  const at::Tensor& x = inputs.at(0);
  if (training) input_sizes_ = x.sizes().vec();
  return x.reshape({x.size(0), -1});
}

std::vector<at::Tensor> Flatten::backward(const at::Tensor& grad_output) {
  return {grad_output.reshape(input_sizes_)};
}

at::Tensor Add::forward(const std::vector<at::Tensor>& inputs, bool training) {
  if (inputs.empty()) throw std::invalid_argument("an add layer with no inputs");
  if (training) inputs_ = inputs.size();
  at::Tensor y = inputs[0].clone();
  for (std::size_t i = 1; i < inputs.size(); ++i) y.add_(inputs[i]);
  return y;
}

std::vector<at::Tensor> Add::backward(const at::Tensor& grad_output) {
  // Each input's gradient is the output's; the consumers only read it.
  return std::vector<at::Tensor>(inputs_, grad_output);
}

at::Tensor PadShortcut::forward(const std::vector<at::Tensor>& inputs, bool training) {
  const at::Tensor& x = inputs.at(0);
  if (training) input_sizes_ = x.sizes().vec();
  const at::Tensor sub = x.slice(2, 0, x.size(2), stride_).slice(3, 0, x.size(3), stride_);
  return at::constant_pad_nd(sub, {0, 0, 0, 0, 0, channels_ - x.size(1)}, 0);
}

std::vector<at::Tensor> PadShortcut::backward(const at::Tensor& grad_output) {
  at::Tensor dx = at::zeros(input_sizes_, grad_output.options());
  dx.slice(2, 0, input_sizes_[2], stride_)
      .slice(3, 0, input_sizes_[3], stride_)
      .copy_(grad_output.narrow(1, 0, input_sizes_[1]));
  return {dx};
}

at::Tensor Concat::forward(const std::vector<at::Tensor>& inputs, bool training) {
  if (training) {
    channels_.clear();
    for (const at::Tensor& x : inputs) channels_.push_back(x.size(1));
  }
  return at::cat(inputs, 1);
}

std::vector<at::Tensor> Concat::backward(const at::Tensor& grad_output) {
  std::vector<at::Tensor> grads;
  std::int64_t at = 0;
  for (std::int64_t c : channels_) {
    grads.push_back(grad_output.narrow(1, at, c));
    at += c;
  }
  return grads;
}

}  // namespace ordo::train
