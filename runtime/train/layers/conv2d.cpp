#include "runtime/train/layers/conv2d.hpp"

#include <ATen/ops/conv2d.h>
#include <ATen/ops/convolution_backward.h>
#include <ATen/ops/zeros.h>

namespace ordo::train {

Conv2d::Conv2d(std::string name, ConvShape shape, at::ScalarType dtype) : shape_(shape) {
  const std::vector<std::int64_t> size = {shape.out, shape.in, shape.kernel, shape.kernel};
  weight_ = {name + ".weight", at::zeros(size, dtype), at::zeros(size, dtype), ParamRole::weight};
}

at::Tensor Conv2d::forward(const std::vector<at::Tensor>& inputs, bool training) {
  const at::Tensor& x = inputs.at(0);
  if (training) input_ = x;
  return at::conv2d(x, weight_.value, {}, shape_.stride, shape_.padding);
}

std::vector<at::Tensor> Conv2d::backward(const at::Tensor& grad_output) {
  auto [dx, dw, db] = at::convolution_backward(
      grad_output, input_, weight_.value, at::OptionalIntArrayRef{}, {shape_.stride, shape_.stride},
      {shape_.padding, shape_.padding}, {1, 1}, false, {0, 0}, 1, {true, true, false});
  weight_.grad.copy_(dw);
  return {dx};
}

}  // namespace ordo::train
