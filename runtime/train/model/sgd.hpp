// The update the trainer's update ops run: SGD with momentum and weight decay, in PyTorch's
// form (v = momentum * v + (grad * rescale + weight_decay * w); w -= lr * v), so that a run and
// the same run in PyTorch DDP take the same steps; and the learning rate of each step, with the
// linear warm-up and step decay of large-batch training (Goyal et al.), which the paper's
// large-batch runs follow.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace ordo::train {

struct SgdConfig {
  double momentum = 0.9;
  double weight_decay = 1e-4;
  // Multiplies the gradient first: 1 / ranks when the KVStore returns the sum of every rank's
  // mean-loss gradient, so the step follows the mean over the global batch.
  double rescale = 1.0;
};

// One parameter's update, in place; `velocity` is this parameter's momentum buffer (zeros at the
// start, of the parameter's shape). Throws std::invalid_argument on shapes that differ.
void sgd_update(at::Tensor& weight, const at::Tensor& grad, at::Tensor& velocity, double lr,
                const SgdConfig& config);

struct LrSchedule {
  double base = 0.1;
  // Steps of linear warm-up: step s < warmup uses base * (s + 1) / warmup.
  std::uint64_t warmup = 0;
  // After warm-up, the rate is multiplied by `factor` at each of these steps (ascending).
  std::vector<std::uint64_t> milestones;
  double factor = 0.1;
};

// The learning rate of step `step` (counted from 0). Throws std::invalid_argument for a base or
// factor that is not positive and finite, or milestones out of order.
double learning_rate(const LrSchedule& schedule, std::uint64_t step);

}  // namespace ordo::train
