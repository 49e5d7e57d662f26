#include "runtime/train/layers/dense.hpp"

#include <ATen/ops/addmm.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/sum.h>
#include <ATen/ops/zeros.h>

namespace ordo::train {

Dense::Dense(std::string name, std::int64_t in, std::int64_t out, at::ScalarType dtype) {
  weight_ = {name + ".weight", at::zeros({out, in}, dtype), at::zeros({out, in}, dtype),
             ParamRole::weight};
  bias_ = {name + ".bias", at::zeros({out}, dtype), at::zeros({out}, dtype), ParamRole::bias};
}

at::Tensor Dense::forward(const std::vector<at::Tensor>& inputs, bool training) {
  const at::Tensor& x = inputs.at(0);
  if (training) input_ = x;
  return at::addmm(bias_.value, x, weight_.value.t());
}

std::vector<at::Tensor> Dense::backward(const at::Tensor& grad_output) {
  at::mm_out(weight_.grad, grad_output.t(), input_);
  at::sum_out(bias_.grad, grad_output, {0});
  return {at::mm(grad_output, weight_.value)};
}

}  // namespace ordo::train
