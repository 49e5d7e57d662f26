// Every layer's backward against libtorch's autograd on one whole network that uses every layer
// (convolutions, batch norm, ReLU, max and average pooling, a residual add, a channel concat, the
// global average, flatten, dense, the loss), in double precision: the input gradient and every
// parameter gradient must agree. And the layers' forward in training mode must update batch
// norm's running statistics as autograd's batch_norm does.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <memory>
#include <vector>

#include "runtime/train/layers/batch_norm.hpp"
#include "runtime/train/layers/conv2d.hpp"
#include "runtime/train/layers/dense.hpp"
#include "runtime/train/layers/elementwise.hpp"
#include "runtime/train/layers/init.hpp"
#include "runtime/train/layers/pooling.hpp"
#include "runtime/train/layers/softmax_cross_entropy.hpp"

namespace ordo::train {
namespace {

constexpr auto f64 = at::kDouble;

struct Net {
  Conv2d conv1{"conv1", {1, 3, 3, 1, 1}, f64};
  BatchNorm bn1{"bn1", 3, f64};
  Relu relu1;
  MaxPool pool1{{2, 2, 0}};
  Conv2d conv2{"conv2", {3, 3, 3, 1, 1}, f64};
  BatchNorm bn2{"bn2", 3, f64};
  Relu relu2;
  Add add;
  Relu relu3;
  Conv2d conv3{"conv3", {3, 2, 1, 1, 0}, f64};
  Concat cat;
  AvgPool avg{{3, 1, 1}};
  GlobalAvgPool gap;
  Flatten flat;
  Dense fc{"fc", 5, 5, f64};
  SoftmaxCrossEntropy loss;

  std::vector<Layer*> layers() {
    return {&conv1, &bn1,   &relu1, &pool1, &conv2, &bn2,  &relu2, &add,
            &relu3, &conv3, &cat,   &avg,   &gap,   &flat, &fc};
  }

  at::Tensor forward(const at::Tensor& x, const at::Tensor& labels) {
    const at::Tensor p =
        pool1.forward({relu1.forward({bn1.forward({conv1.forward({x}, true)}, true)}, true)}, true);
    const at::Tensor a = relu2.forward({bn2.forward({conv2.forward({p}, true)}, true)}, true);
    const at::Tensor r = relu3.forward({add.forward({a, p}, true)}, true);
    const at::Tensor c = cat.forward({r, conv3.forward({p}, true)}, true);
    const at::Tensor z =
        fc.forward({flat.forward({gap.forward({avg.forward({c}, true)}, true)}, true)}, true);
    return loss.forward(z, labels);
  }

  // Backward in reverse, summing the gradients of the output that two layers read (p).
  at::Tensor backward() {
    const at::Tensor dz = loss.backward();
    const at::Tensor dc = avg.backward(gap.backward(flat.backward(fc.backward(dz)[0])[0])[0])[0];
    const std::vector<at::Tensor> dcat = cat.backward(dc);
    const at::Tensor dp_from_conv3 = conv3.backward(dcat[1])[0];
    const std::vector<at::Tensor> dadd = add.backward(relu3.backward(dcat[0])[0]);
    const at::Tensor dp_from_a = conv2.backward(bn2.backward(relu2.backward(dadd[0])[0])[0])[0];
    const at::Tensor dp = dp_from_conv3 + dp_from_a + dadd[1];
    return conv1.backward(bn1.backward(relu1.backward(pool1.backward(dp)[0])[0])[0])[0];
  }
};

// The same network written with autograd's functional ops over copies of the parameters.
struct Reference {
  std::map<std::string, torch::Tensor> p;
  std::map<std::string, torch::Tensor> running;

  explicit Reference(Net& net) {
    for (Layer* l : net.layers()) {
      for (Param* q : l->params()) p[q->name] = q->value.detach().clone().set_requires_grad(true);
    }
    for (const char* bn : {"bn1", "bn2"}) {
      running[std::string(bn) + ".mean"] = torch::zeros({3}, f64);
      running[std::string(bn) + ".var"] = torch::ones({3}, f64);
    }
  }

  torch::Tensor bn(const torch::Tensor& x, const std::string& name) {
    return torch::batch_norm(x, p[name + ".gamma"], p[name + ".beta"], running[name + ".mean"],
                             running[name + ".var"], true, 0.1, 1e-5, false);
  }

  torch::Tensor loss(const torch::Tensor& x, const torch::Tensor& labels) {
    const auto pool = torch::max_pool2d(
        torch::relu(bn(torch::conv2d(x, p["conv1.weight"], {}, 1, 1), "bn1")), 2, 2);
    const auto a = torch::relu(bn(torch::conv2d(pool, p["conv2.weight"], {}, 1, 1), "bn2"));
    const auto r = torch::relu(a + pool);
    const auto c = torch::cat({r, torch::conv2d(pool, p["conv3.weight"])}, 1);
    const auto g = torch::adaptive_avg_pool2d(torch::avg_pool2d(c, 3, 1, 1), {1, 1});
    const auto z = torch::linear(g.reshape({g.size(0), -1}), p["fc.weight"], p["fc.bias"]);
    return torch::nll_loss(torch::log_softmax(z, 1), labels);
  }
};

void expect_close(const at::Tensor& ours, const at::Tensor& theirs, const std::string& what) {
  ASSERT_EQ(ours.sizes(), theirs.sizes()) << what;
  const double err = (ours - theirs).abs().max().item<double>();
  const double scale = theirs.abs().max().item<double>();
  EXPECT_LE(err, 1e-10 * std::max(1.0, scale)) << what << ": max error " << err;
  EXPECT_GT(scale, 0.0) << what << ": an all-zero gradient tests nothing";
}

TEST(Layers, BackwardEqualsAutogradOnAWholeNetwork) {
  torch::manual_seed(3);
  Net net;
  init_params(net.layers(), 11);
  // Non-trivial gammas and betas, so their gradients and their effect are both exercised.
  for (Layer* l : {static_cast<Layer*>(&net.bn1), static_cast<Layer*>(&net.bn2)}) {
    for (Param* q : l->params()) q->value.add_(torch::rand(q->value.sizes(), f64) - 0.5);
  }
  Reference ref(net);
  const torch::Tensor x = torch::randn({4, 1, 12, 12}, f64);
  const torch::Tensor labels = torch::tensor({0, 3, 4, 1}, torch::kLong);

  const at::Tensor our_loss = net.forward(x, labels);
  const at::Tensor dx = net.backward();

  const torch::Tensor x_ref = x.clone().set_requires_grad(true);
  const torch::Tensor their_loss = ref.loss(x_ref, labels);
  their_loss.backward();

  EXPECT_NEAR(our_loss.item<double>(), their_loss.item<double>(), 1e-12);
  expect_close(dx, x_ref.grad(), "the input");
  std::size_t compared = 0;
  for (Layer* l : net.layers()) {
    for (Param* q : l->params()) {
      expect_close(q->grad, ref.p.at(q->name).grad(), q->name);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 9u);  // 3 convolution weights, 2 x (gamma, beta), fc weight and bias
  for (const char* bn : {"bn1", "bn2"}) {
    BatchNorm& b = std::string(bn) == "bn1" ? net.bn1 : net.bn2;
    expect_close(*b.buffers()[0], ref.running.at(std::string(bn) + ".mean"),
                 std::string(bn) + " mean");
    expect_close(*b.buffers()[1], ref.running.at(std::string(bn) + ".var"),
                 std::string(bn) + " var");
  }
}

TEST(Layers, InitIsAFunctionOfTheSeed) {
  Net a;
  Net b;
  Net c;
  init_params(a.layers(), 5);
  init_params(b.layers(), 5);
  init_params(c.layers(), 6);
  EXPECT_TRUE(a.conv1.params()[0]->value.equal(b.conv1.params()[0]->value));
  EXPECT_FALSE(a.conv1.params()[0]->value.equal(c.conv1.params()[0]->value));
  EXPECT_TRUE(a.bn1.params()[0]->value.equal(torch::ones({3}, f64)));
  EXPECT_TRUE(a.fc.params()[1]->value.equal(torch::zeros({5}, f64)));
  // He-normal: the weight's spread is about sqrt(2 / fan_in) (fan_in 3*3*3 = 27 for conv2).
  Conv2d big("big", {64, 64, 3, 1, 1}, f64);
  init_params({&big}, 1);
  EXPECT_NEAR(big.params()[0]->value.std().item<double>(), std::sqrt(2.0 / 576.0), 0.002);
}

}  // namespace
}  // namespace ordo::train
