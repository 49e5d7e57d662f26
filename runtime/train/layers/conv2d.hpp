// A 2-D convolution without bias (every convolution of the ResNets and Inception-BN is followed
// by batch norm, whose beta is the bias), x of shape [batch, in, height, width].
#pragma once

#include "runtime/train/layers/layer.hpp"

namespace ordo::train {

struct ConvShape {
  std::int64_t in = 0;
  std::int64_t out = 0;
  std::int64_t kernel = 1;
  std::int64_t stride = 1;
  std::int64_t padding = 0;
};

class Conv2d final : public Layer {
 public:
  Conv2d(std::string name, ConvShape shape, at::ScalarType dtype);
  at::Tensor forward(const std::vector<at::Tensor>& inputs, bool training) override;
  std::vector<at::Tensor> backward(const at::Tensor& grad_output) override;
  std::vector<Param*> params() override { return {&weight_}; }

 private:
  ConvShape shape_;
  Param weight_;  // [out, in, kernel, kernel]
  at::Tensor input_;
};

}  // namespace ordo::train
