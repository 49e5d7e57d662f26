#include "runtime/train/layers/pooling.hpp"

#include <ATen/ops/_adaptive_avg_pool2d.h>
#include <ATen/ops/_adaptive_avg_pool2d_backward.h>
#include <ATen/ops/avg_pool2d.h>
#include <ATen/ops/avg_pool2d_backward.h>
#include <ATen/ops/max_pool2d_with_indices.h>
#include <ATen/ops/max_pool2d_with_indices_backward.h>

namespace ordo::train {

at::Tensor MaxPool::forward(const std::vector<at::Tensor>& inputs, bool training) {
  const at::Tensor& x = inputs.at(0);
  auto [y, indices] =
      at::max_pool2d_with_indices(x, shape_.kernel, shape_.stride, shape_.padding, 1, false);
  if (training) {
    input_ = x;
    indices_ = indices;
  }
  return y;
}

std::vector<at::Tensor> MaxPool::backward(const at::Tensor& grad_output) {
  return {at::max_pool2d_with_indices_backward(grad_output, input_, shape_.kernel, shape_.stride,
                                               shape_.padding, 1, false, indices_)};
}

at::Tensor AvgPool::forward(const std::vector<at::Tensor>& inputs, bool training) {
  const at::Tensor& x = inputs.at(0);
  if (training) input_ = x;
  return at::avg_pool2d(x, shape_.kernel, shape_.stride, shape_.padding, false, true);
}

std::vector<at::Tensor> AvgPool::backward(const at::Tensor& grad_output) {
  return {at::avg_pool2d_backward(grad_output, input_, shape_.kernel, shape_.stride, shape_.padding,
                                  false, true, c10::nullopt)};
}

at::Tensor GlobalAvgPool::forward(const std::vector<at::Tensor>& inputs, bool training) {
  const at::Tensor& x = inputs.at(0);
  if (training) input_ = x;
  return at::_adaptive_avg_pool2d(x, {1, 1});
}

std::vector<at::Tensor> GlobalAvgPool::backward(const at::Tensor& grad_output) {
  return {at::_adaptive_avg_pool2d_backward(grad_output, input_)};
}

}  // namespace ordo::train
