// Layers without parameters that act element by element or on shapes: ReLU, the flatten before a
// dense layer, the sum that joins a residual block's branches, the channel concatenation that
// joins Inception's.
#pragma once

#include "runtime/train/layers/layer.hpp"

namespace ordo::train {

class Relu final : public Layer {
 public:
  at::Tensor forward(const std::vector<at::Tensor>& inputs, bool training) override;
  std::vector<at::Tensor> backward(const at::Tensor& grad_output) override;

 private:
  at::Tensor output_;
};

// Its input unchanged: a model's layer that computes nothing the trainer must (a dropout of rate
// 0, the softmax its loss already is).
class Identity final : public Layer {
 public:
  at::Tensor forward(const std::vector<at::Tensor>& inputs, bool /*training*/) override {
    return inputs.at(0);
  }
  std::vector<at::Tensor> backward(const at::Tensor& grad_output) override { return {grad_output}; }
};

class Flatten final : public Layer {
 public:
  at::Tensor forward(const std::vector<at::Tensor>& inputs, bool training) override;
  std::vector<at::Tensor> backward(const at::Tensor& grad_output) override;

 private:
  std::vector<std::int64_t> input_sizes_;
};

// The sum of its inputs, all of one shape.
class Add final : public Layer {
 public:
  at::Tensor forward(const std::vector<at::Tensor>& inputs, bool training) override;
  std::vector<at::Tensor> backward(const at::Tensor& grad_output) override;

 private:
  std::size_t inputs_ = 0;
};

// ResNet's parameter-free shortcut (option A): every stride-th pixel, channels padded with zeros
// to `channels`.
class PadShortcut final : public Layer {
 public:
  PadShortcut(std::int64_t channels, std::int64_t stride) : channels_(channels), stride_(stride) {}
  at::Tensor forward(const std::vector<at::Tensor>& inputs, bool training) override;
  std::vector<at::Tensor> backward(const at::Tensor& grad_output) override;

 private:
  std::int64_t channels_;
  std::int64_t stride_;
  std::vector<std::int64_t> input_sizes_;
};

// Its inputs joined along the channels (dimension 1).
class Concat final : public Layer {
 public:
  at::Tensor forward(const std::vector<at::Tensor>& inputs, bool training) override;
  std::vector<at::Tensor> backward(const at::Tensor& grad_output) override;

 private:
  std::vector<std::int64_t> channels_;
};

}  // namespace ordo::train
