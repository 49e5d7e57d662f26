// A network's compute built from its description: the parameters are the network's keys (names
// and sizes, in key order), and running backward layer by layer, in reverse, with the summing of
// gradients that several layers read, gives exactly autograd's gradients through the same
// forward, for the parameters and the batch, on networks with residual adds, parameter-free
// shortcuts, concatenations and every op kind.
#include "runtime/train/model/model.hpp"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>
#include <vector>

#include "runtime/networks/network.hpp"
#include "runtime/networks/network_builder.hpp"
#include "runtime/train/layers/init.hpp"

namespace ordo::train {
namespace {

namespace op = networks::op;

networks::Network inception_like() {
  networks::NetworkBuilder b("inception_like", {3, 9, 9});
  const auto stem = b.add("stem", {}, {op::conv(4, 3, 1, 1), op::batch_norm(), op::relu()});
  const auto left = b.add("left", {stem}, {op::conv(3, 1, 1, 0), op::batch_norm(), op::relu()});
  const auto right = b.add("right", {stem}, {op::avg_pool(3, 1, 1), op::conv(2, 3, 1, 1)});
  const auto pool = b.add("pool", {stem}, {op::max_pool(3, 1, 1)});
  const auto cat =
      b.add("cat", {left, right, pool}, {op::concat(), op::relu(), op::max_pool(3, 2, 0)});
  const auto head = b.add("head", {cat}, {op::dense(6), op::batch_norm(), op::relu()});
  b.add("out", {head}, {op::dense(4)});
  return b.build(1.0);
}

void check_against_autograd(const networks::Network& net, std::int64_t batch_size) {
  SCOPED_TRACE(net.name);
  Model model(net, at::kDouble);
  model.keep_batch_grad(true);
  init_params(model.library_layers(), 7);
  // The keys, in order.
  std::size_t k = 0;
  for (const networks::Layer& l : net.layers) {
    for (const networks::Param& p : l.params) {
      ASSERT_LT(k, model.params().size());
      EXPECT_EQ(model.params()[k]->name, p.name);
      EXPECT_EQ(static_cast<std::uint64_t>(model.params()[k]->value.numel()), p.count);
      ++k;
    }
  }
  EXPECT_EQ(k, model.params().size());

  torch::manual_seed(1);
  std::vector<std::int64_t> shape = {batch_size};
  for (std::uint32_t d : net.input) shape.push_back(d);
  const torch::Tensor batch = torch::randn(shape, at::kDouble).set_requires_grad(true);
  const std::int64_t classes = model.params().back()->value.size(0);
  const torch::Tensor labels = torch::randint(classes, {batch_size}, torch::kLong);
  for (Param* p : model.params()) p->value.set_requires_grad(true);

  for (std::size_t l = 0; l < model.layers(); ++l) model.forward(l, batch, true);
  const torch::Tensor loss = model.loss_forward(labels);
  loss.backward();
  {
    torch::NoGradGuard no_grad;
    model.loss_backward();
    for (std::size_t l = model.layers(); l-- > 0;) model.backward(l);
  }
  const auto close = [](const at::Tensor& ours, const at::Tensor& theirs, const std::string& what) {
    ASSERT_TRUE(theirs.defined()) << what;
    ASSERT_EQ(ours.sizes(), theirs.sizes()) << what;
    const double err = (ours - theirs).abs().max().item<double>();
    EXPECT_LE(err, 1e-10 * std::max(1.0, theirs.abs().max().item<double>())) << what;
  };
  for (Param* p : model.params()) close(p->grad, p->value.grad(), p->name);
  close(model.batch_grad(), batch.grad(), "the batch");
}

TEST(Model, BackwardLayerByLayerEqualsAutograd) {
  check_against_autograd(networks::cifar_resnet(8, 5, {2, 8, 8}, 1.0), 3);
  check_against_autograd(networks::cifar_resnet(14, 3, {1, 12, 12}, 1.0), 2);
  check_against_autograd(networks::lenet(10, 1.0), 2);
  check_against_autograd(inception_like(), 3);
  check_against_autograd(networks::mlp(3, 8, 1.0), 4);
  check_against_autograd(networks::inception_bn(5, {3, 16, 16}, 1.0), 2);
}

// Inception-BN's layers build on libtorch with the network's keys, and a forward pass gives one
// row of class scores per image, at a small image and at its own 224x224.
TEST(Model, BuildsInceptionBn) {
  for (const std::uint32_t side : {64u, 224u}) {
    const networks::Network net = networks::inception_bn(1000, {3, side, side}, 1.0);
    Model model(net, at::kFloat);
    EXPECT_EQ(model.params().size(), 209u);
    init_params(model.library_layers(), 3);
    torch::manual_seed(2);
    const std::int64_t batch = side == 224u ? 1 : 2;
    const torch::Tensor images = torch::randn({batch, 3, side, side});
    torch::NoGradGuard no_grad;
    for (std::size_t l = 0; l < model.layers(); ++l) model.forward(l, images, false);
    const at::Tensor& out = model.output(model.layers() - 1);
    EXPECT_EQ(out.sizes(), (at::IntArrayRef{batch, 1000})) << side;
    EXPECT_TRUE(out.isfinite().all().item<bool>()) << side;
  }
}

TEST(Model, RefusesANetworkThatDoesNotSayWhatItComputes) {
  networks::Network bare = networks::mlp(2, 4, 1.0);
  bare.input.clear();
  for (auto& l : bare.layers) l.ops.clear();
  EXPECT_THROW(Model(bare, at::kFloat), std::invalid_argument);
}

}  // namespace
}  // namespace ordo::train
