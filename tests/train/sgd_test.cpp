// The update against PyTorch's own SGD (torch::optim::SGD with momentum and weight decay) over
// steps whose learning rate changes, bit for bit in double precision; and the schedule's values.
#include "runtime/train/model/sgd.hpp"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <stdexcept>
#include <vector>

namespace ordo::train {
namespace {

TEST(Sgd, TakesPyTorchsStepsExactly) {
  torch::manual_seed(4);
  const torch::Tensor w0 = torch::randn({5, 3}, torch::kDouble);
  torch::Tensor ours = w0.clone();
  torch::Tensor velocity = torch::zeros_like(w0);
  torch::Tensor theirs = w0.clone().set_requires_grad(true);
  torch::optim::SGD opt({theirs}, torch::optim::SGDOptions(0.1).momentum(0.9).weight_decay(5e-4));
  const SgdConfig config{0.9, 5e-4, 0.5};
  const LrSchedule schedule{0.1, 3, {5}, 0.1};
  for (std::uint64_t step = 0; step < 8; ++step) {
    const torch::Tensor g = torch::randn({5, 3}, torch::kDouble);
    const double lr = learning_rate(schedule, step);
    sgd_update(ours, g, velocity, lr, config);
    static_cast<torch::optim::SGDOptions&>(opt.param_groups()[0].options()).lr(lr);
    theirs.mutable_grad() = g * 0.5;  // PyTorch has no rescale: it sees the rescaled gradient
    opt.step();
    EXPECT_TRUE(ours.equal(theirs.detach())) << "step " << step;
  }
  EXPECT_FALSE(ours.equal(w0));
}

TEST(Sgd, ShapesMustAgree) {
  torch::Tensor w = torch::zeros({2});
  torch::Tensor v = torch::zeros({3});
  EXPECT_THROW(sgd_update(w, torch::zeros({2}), v, 0.1, {}), std::invalid_argument);
}

TEST(LrSchedule, WarmsUpLinearlyThenDecaysAtMilestones) {
  const LrSchedule s{0.4, 4, {10, 20}, 0.1};
  EXPECT_DOUBLE_EQ(learning_rate(s, 0), 0.1);
  EXPECT_DOUBLE_EQ(learning_rate(s, 3), 0.4);
  EXPECT_DOUBLE_EQ(learning_rate(s, 9), 0.4);
  EXPECT_DOUBLE_EQ(learning_rate(s, 10), 0.4 * 0.1);
  EXPECT_DOUBLE_EQ(learning_rate(s, 25), 0.4 * 0.1 * 0.1);
  EXPECT_DOUBLE_EQ(learning_rate(LrSchedule{0.1, 0, {}, 0.1}, 0), 0.1);
  EXPECT_THROW(learning_rate(LrSchedule{0.0, 0, {}, 0.1}, 0), std::invalid_argument);
  EXPECT_THROW(learning_rate(LrSchedule{0.1, 0, {5, 5}, 0.1}, 0), std::invalid_argument);
}

}  // namespace
}  // namespace ordo::train
