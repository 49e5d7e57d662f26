// The training loss: the mean over the batch of the cross-entropy of softmax(logits) against
// integer class labels. Not a Layer: it takes the labels and starts backward with no gradient in.
#pragma once

#include <ATen/core/Tensor.h>

namespace ordo::train {

class SoftmaxCrossEntropy {
 public:
  // logits [batch, classes], labels [batch] of int64; returns the loss (a 0-d tensor).
  at::Tensor forward(const at::Tensor& logits, const at::Tensor& labels);
  // The gradient of the loss with respect to the logits of the last forward.
  at::Tensor backward();

 private:
  at::Tensor log_probs_;
  at::Tensor labels_;
  at::Tensor total_weight_;
};

}  // namespace ordo::train
