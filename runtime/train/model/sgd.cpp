#include "runtime/train/model/sgd.hpp"

#include <cmath>
#include <stdexcept>

namespace ordo::train {

void sgd_update(at::Tensor& weight, const at::Tensor& grad, at::Tensor& velocity, double lr,
                const SgdConfig& config) {
  if (!weight.sizes().equals(grad.sizes()) || !weight.sizes().equals(velocity.sizes())) {
    throw std::invalid_argument("sgd_update: weight, gradient and velocity differ in shape");
  }
  // The order of operations is PyTorch's, so that the same inputs give the same bits.
  at::Tensor d = config.rescale == 1.0 ? grad : grad.mul(config.rescale);
  if (config.weight_decay != 0.0) d = d.add(weight, config.weight_decay);
  if (config.momentum != 0.0) {
    velocity.mul_(config.momentum).add_(d);
    d = velocity;
  }
  weight.add_(d, -lr);
}

double learning_rate(const LrSchedule& schedule, std::uint64_t step) {
  if (!(schedule.base > 0.0) || !std::isfinite(schedule.base) || !(schedule.factor > 0.0) ||
      !std::isfinite(schedule.factor)) {
    throw std::invalid_argument("a learning rate schedule needs a positive base and factor");
  }
  for (std::size_t i = 1; i < schedule.milestones.size(); ++i) {
    if (schedule.milestones[i] <= schedule.milestones[i - 1]) {
      throw std::invalid_argument("learning rate milestones must ascend");
    }
  }
  if (step < schedule.warmup) {
    return schedule.base * static_cast<double>(step + 1) / static_cast<double>(schedule.warmup);
  }
  double lr = schedule.base;
  for (std::uint64_t m : schedule.milestones) {
    if (step >= m) lr *= schedule.factor;
  }
  return lr;
}

}  // namespace ordo::train
