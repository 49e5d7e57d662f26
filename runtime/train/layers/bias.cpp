#include "runtime/train/layers/bias.hpp"

#include <ATen/ops/add.h>
#include <ATen/ops/sum.h>
#include <ATen/ops/zeros.h>

namespace ordo::train {

namespace {

// The bias shaped to broadcast over the batch and, for images, over the pixels.
at::Tensor spread(const at::Tensor& bias, std::int64_t dims) {
  std::vector<std::int64_t> shape(static_cast<std::size_t>(dims), 1);
  shape[1] = bias.size(0);
  return bias.view(shape);
}

}  // namespace

Bias::Bias(std::string name, std::int64_t channels, at::ScalarType dtype) {
  bias_ = {name + ".bias", at::zeros({channels}, dtype), at::zeros({channels}, dtype),
           ParamRole::bias};
}

at::Tensor Bias::forward(const std::vector<at::Tensor>& inputs, bool /*training*/) {
  const at::Tensor& x = inputs.at(0);
  return at::add(x, spread(bias_.value, x.dim()));
}

std::vector<at::Tensor> Bias::backward(const at::Tensor& grad_output) {
  std::vector<std::int64_t> over = {0};
  for (std::int64_t d = 2; d < grad_output.dim(); ++d) over.push_back(d);
  at::sum_out(bias_.grad, grad_output, over);
  return {grad_output};
}

}  // namespace ordo::train
