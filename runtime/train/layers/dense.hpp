// A fully connected layer: y = x W^T + b, x of shape [batch, in].
#pragma once

#include "runtime/train/layers/layer.hpp"

namespace ordo::train {

class Dense final : public Layer {
 public:
  // Parameters start at zero; init_params (init.hpp) draws them.
  Dense(std::string name, std::int64_t in, std::int64_t out, at::ScalarType dtype);
  at::Tensor forward(const std::vector<at::Tensor>& inputs, bool training) override;
  std::vector<at::Tensor> backward(const at::Tensor& grad_output) override;
  std::vector<Param*> params() override { return {&weight_, &bias_}; }

 private:
  Param weight_;  // [out, in]
  Param bias_;    // [out]
  at::Tensor input_;
};

}  // namespace ordo::train
