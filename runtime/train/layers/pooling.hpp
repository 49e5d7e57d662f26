// Pooling over [batch, channels, height, width]: max and average windows, and the global average
// that ends the ResNets and Inception-BN.
#pragma once

#include "runtime/train/layers/layer.hpp"

namespace ordo::train {

struct PoolShape {
  std::int64_t kernel = 2;
  std::int64_t stride = 2;
  std::int64_t padding = 0;
};

class MaxPool final : public Layer {
 public:
  explicit MaxPool(PoolShape shape) : shape_(shape) {}
  at::Tensor forward(const std::vector<at::Tensor>& inputs, bool training) override;
  std::vector<at::Tensor> backward(const at::Tensor& grad_output) override;

 private:
  PoolShape shape_;
  at::Tensor input_;
  at::Tensor indices_;
};

// Counts padding in the divisor, as MXNet's and PyTorch's defaults do.
class AvgPool final : public Layer {
 public:
  explicit AvgPool(PoolShape shape) : shape_(shape) {}
  at::Tensor forward(const std::vector<at::Tensor>& inputs, bool training) override;
  std::vector<at::Tensor> backward(const at::Tensor& grad_output) override;

 private:
  PoolShape shape_;
  at::Tensor input_;
};

// The mean over height and width: [batch, channels, h, w] to [batch, channels, 1, 1].
class GlobalAvgPool final : public Layer {
 public:
  at::Tensor forward(const std::vector<at::Tensor>& inputs, bool training) override;
  std::vector<at::Tensor> backward(const at::Tensor& grad_output) override;

 private:
  at::Tensor input_;
};

}  // namespace ordo::train
