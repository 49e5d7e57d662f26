// Batch normalisation over the channels of [batch, channels, height, width] (or [batch, features])
// with learned gamma and beta. The running mean and variance are per rank and never reduced, as
// MXNet keeps them; evaluation uses them.
#pragma once

#include "runtime/train/layers/layer.hpp"

namespace ordo::train {

class BatchNorm final : public Layer {
 public:
  BatchNorm(std::string name, std::int64_t channels, at::ScalarType dtype, double momentum = 0.1,
            double eps = 1e-5);
  at::Tensor forward(const std::vector<at::Tensor>& inputs, bool training) override;
  std::vector<at::Tensor> backward(const at::Tensor& grad_output) override;
  std::vector<Param*> params() override { return {&gamma_, &beta_}; }
  std::vector<at::Tensor*> buffers() override { return {&running_mean_, &running_var_}; }

 private:
  double momentum_;
  double eps_;
  Param gamma_;
  Param beta_;
  at::Tensor running_mean_;
  at::Tensor running_var_;
  at::Tensor input_;
  at::Tensor save_mean_;
  at::Tensor save_invstd_;
};

}  // namespace ordo::train
