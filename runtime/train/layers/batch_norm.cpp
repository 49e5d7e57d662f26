#include "runtime/train/layers/batch_norm.hpp"

#include <ATen/ops/native_batch_norm.h>
#include <ATen/ops/native_batch_norm_backward.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/zeros.h>

namespace ordo::train {

BatchNorm::BatchNorm(std::string name, std::int64_t channels, at::ScalarType dtype, double momentum,
                     double eps)
    : momentum_(momentum), eps_(eps) {
  gamma_ = {name + ".gamma", at::ones({channels}, dtype), at::zeros({channels}, dtype),
            ParamRole::scale};
  beta_ = {name + ".beta", at::zeros({channels}, dtype), at::zeros({channels}, dtype),
           ParamRole::shift};
  running_mean_ = at::zeros({channels}, dtype);
  running_var_ = at::ones({channels}, dtype);
}

at::Tensor BatchNorm::forward(const std::vector<at::Tensor>& inputs, bool training) {
  const at::Tensor& x = inputs.at(0);
  auto [y, mean, invstd] = at::native_batch_norm(x, gamma_.value, beta_.value, running_mean_,
                                                 running_var_, training, momentum_, eps_);
  if (training) {
    input_ = x;
    save_mean_ = mean;
    save_invstd_ = invstd;
  }
  return y;
}

std::vector<at::Tensor> BatchNorm::backward(const at::Tensor& grad_output) {
  auto [dx, dgamma, dbeta] =
      at::native_batch_norm_backward(grad_output, input_, gamma_.value, running_mean_, running_var_,
                                     save_mean_, save_invstd_, true, eps_, {true, true, true});
  gamma_.grad.copy_(dgamma);
  beta_.grad.copy_(dbeta);
  return {dx};
}

}  // namespace ordo::train
