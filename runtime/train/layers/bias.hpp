// A learned bias added per channel of [batch, channels, height, width] (or per feature of
// [batch, features]): a convolution's bias, as a model from another framework has it.
#pragma once

#include "runtime/train/layers/layer.hpp"

namespace ordo::train {

class Bias final : public Layer {
 public:
  Bias(std::string name, std::int64_t channels, at::ScalarType dtype);
  at::Tensor forward(const std::vector<at::Tensor>& inputs, bool training) override;
  std::vector<at::Tensor> backward(const at::Tensor& grad_output) override;
  std::vector<Param*> params() override { return {&bias_}; }

 private:
  Param bias_;  // [channels]
};

}  // namespace ordo::train
