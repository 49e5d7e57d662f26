#include "runtime/train/layers/softmax_cross_entropy.hpp"

#include <ATen/core/Reduction.h>
#include <ATen/ops/_log_softmax.h>
#include <ATen/ops/_log_softmax_backward_data.h>
#include <ATen/ops/nll_loss_backward.h>
#include <ATen/ops/nll_loss_forward.h>
#include <ATen/ops/ones.h>

namespace ordo::train {

namespace {
constexpr std::int64_t no_ignored_class = -100;  // the value PyTorch uses for "none"
}

at::Tensor SoftmaxCrossEntropy::forward(const at::Tensor& logits, const at::Tensor& labels) {
  log_probs_ = at::_log_softmax(logits, 1, false);
  labels_ = labels;
  auto [loss, total_weight] =
      at::nll_loss_forward(log_probs_, labels, {}, at::Reduction::Mean, no_ignored_class);
  total_weight_ = total_weight;
  return loss;
}

at::Tensor SoftmaxCrossEntropy::backward() {
  const at::Tensor one = at::ones({}, log_probs_.options());
  const at::Tensor d_log_probs = at::nll_loss_backward(
      one, log_probs_, labels_, {}, at::Reduction::Mean, no_ignored_class, total_weight_);
  return at::_log_softmax_backward_data(d_log_probs, log_probs_, 1, log_probs_.scalar_type());
}

}  // namespace ordo::train
