// Networks that say what they compute: the built-in ones have their published parameter counts
// (the figures are the architectures' own, from their papers and reference implementations), and
// descriptions whose shapes or parameters do not fit are errors that name the layer.
#include "runtime/networks/shapes.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>
#include <string>

#include "runtime/dag/dump_error.hpp"
#include "runtime/networks/network.hpp"
#include "runtime/networks/network_builder.hpp"
#include "runtime/networks/network_reader.hpp"

namespace ordo::networks {
namespace {

std::uint64_t elements(const Network& net) {
  std::uint64_t n = 0;
  for (const Layer& l : net.layers) {
    for (const Param& p : l.params) n += p.count;
  }
  return n;
}

std::uint64_t macs(const Network& net) {
  const LayerShapes s = infer_shapes(net);
  return std::accumulate(s.macs.begin(), s.macs.end(), std::uint64_t{0});
}

TEST(BuiltInNetworks, HaveTheirPublishedParameterCounts) {
  const Network r50 = resnet50(30000.0);
  EXPECT_EQ(elements(r50), 25'557'032u);  // He et al. 2016; torchvision's resnet50
  EXPECT_EQ(param_count(r50), 161u);
  EXPECT_EQ(infer_shapes(r50).outputs.back(), (Shape{1000}));
  // About 4.1 G multiply-adds per 224x224 image, as published for ResNet-50.
  EXPECT_GT(macs(r50), 4'000'000'000u);
  EXPECT_LT(macs(r50), 4'200'000'000u);
  // He et al.'s CIFAR ResNets with option-A shortcuts: 0.27 M, 0.46 M, 0.85 M, 1.7 M.
  EXPECT_EQ(elements(cifar_resnet(20, 10, {3, 32, 32}, 1.0)), 269'722u);
  EXPECT_EQ(elements(cifar_resnet(32, 10, {3, 32, 32}, 1.0)), 464'154u);
  EXPECT_EQ(elements(cifar_resnet(56, 10, {3, 32, 32}, 1.0)), 853'018u);
  EXPECT_EQ(elements(cifar_resnet(110, 10, {3, 32, 32}, 1.0)), 1'727'962u);
  // LeNet-style: 500 + 40 + 25,000 + 100 + 400,500 + 5,010.
  const Network le = lenet(10, 1.0);
  EXPECT_EQ(elements(le), 431'150u);
  EXPECT_EQ(infer_shapes(le).outputs[1], (Shape{50, 4, 4}));
  EXPECT_THROW(cifar_resnet(21, 10, {3, 32, 32}, 1.0), std::invalid_argument);
}

TEST(BuiltInNetworks, CostsFollowMultiplyAdds) {
  const Network r50 = resnet50(30000.0);
  double forward = 0.0;
  for (const Layer& l : r50.layers) {
    forward += l.forward_us;
    EXPECT_DOUBLE_EQ(l.backward_us, 2.0 * l.forward_us) << l.name;
  }
  EXPECT_NEAR(forward, 30000.0, 1e-6);
  const LayerShapes s = infer_shapes(r50);
  EXPECT_EQ(s.macs[0], 112u * 112u * 64u * 3u * 49u);  // conv0 before its pooling
}

void expect_invalid(const Network& net, const std::string& words) {
  try {
    check_network(net);
    ADD_FAILURE() << "accepted " << net.name;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(Shapes, MisfitsAreErrorsNamingTheLayerAndOp) {
  NetworkBuilder flat("flat", {10});
  EXPECT_THROW(
      {
        try {
          flat.add("c", {}, {op::conv(4, 3, 1, 1)});
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find("layer 'c', op conv: needs an image"),
                    std::string::npos)
              << e.what();
          throw;
        }
      },
      std::invalid_argument);
  NetworkBuilder img("img", {3, 8, 8});
  const std::uint32_t a = img.add("a", {}, {op::conv(4, 3, 1, 1)});
  const std::uint32_t b = img.add("b", {}, {op::conv(4, 3, 2, 1)});
  EXPECT_THROW(img.add("j", {a, b}, {op::add()}), std::invalid_argument);     // 8x8 vs 4x4
  EXPECT_THROW(img.add("k", {a, b}, {op::concat()}), std::invalid_argument);  // sizes differ
  EXPECT_THROW(img.add("two", {a, b}, {op::relu()}), std::invalid_argument);  // no join
  EXPECT_THROW(img.add("late", {a}, {op::relu(), op::add()}), std::invalid_argument);
  EXPECT_THROW(img.add("big", {a}, {op::max_pool(11, 1, 0)}), std::invalid_argument);
  EXPECT_THROW(img.add("pad", {a}, {op::pad_shortcut(2, 2)}), std::invalid_argument);
  EXPECT_THROW(img.add("w2", {a}, {op::conv(4, 1, 1, 0), op::dense(3)}), std::invalid_argument);
  EXPECT_THROW(img.add("z", {a}, {op::conv(4, 0, 1, 0)}), std::invalid_argument);
  // Sizes whose products would wrap 64 bits are refused, not wrapped.
  NetworkBuilder huge("huge", {1u << 24, 1u << 24, 1u << 24});
  EXPECT_THROW(huge.add("c", {}, {op::conv(1u << 24, 1u << 24, 1, 0)}), std::invalid_argument);
  EXPECT_THROW(huge.add("d", {}, {op::dense(1u << 24)}), std::invalid_argument);
  const std::uint32_t same = img.add("same", {}, {op::conv(2, 3, 1, 1)});
  EXPECT_EQ(img.output(img.add("cat", {a, same}, {op::concat()})), (Shape{6, 8, 8}));
}

TEST(Shapes, ParametersMustBeWhatTheOpsHave) {
  Network net = lenet(10, 1.0);
  net.layers[0].params[0].count += 1;
  expect_invalid(net, "layer 'conv1': its parameters are not those its ops have");
  Network half = lenet(10, 1.0);
  half.layers[2].ops.clear();
  expect_invalid(half, "every layer's ops are needed");
  Network no_input = lenet(10, 1.0);
  no_input.input.clear();
  expect_invalid(no_input, "every layer's ops are needed");
}

TEST(Shapes, TheDescriptionFormatCarriesOpsAndInput) {
  const Network net = cifar_resnet(20, 10, {1, 28, 28}, 10.0);
  EXPECT_EQ(read_network(write_network(net)), net);
  EXPECT_THROW(read_network(R"({"format": "ordo-network", "version": 1, "name": "n",
      "input": [4], "layers": [{"name": "a", "ops": [{"op": "softmax"}]}]})"),
               dag::DumpError);
  // Parameters that disagree with the ops are refused at read time.
  EXPECT_THROW(read_network(R"({"format": "ordo-network", "version": 1, "name": "n",
      "input": [4], "layers": [{"name": "a", "ops": [{"op": "dense", "units": 2}],
      "params": [{"name": "a.weight", "count": 9}, {"name": "a.bias", "count": 2}]}]})"),
               dag::DumpError);
  const Network ok = read_network(R"({"format": "ordo-network", "version": 1, "name": "n",
      "input": [4], "layers": [{"name": "a", "ops": [{"op": "dense", "units": 2}],
      "params": [{"name": "a.weight", "count": 8}, {"name": "a.bias", "count": 2}]}]})");
  EXPECT_EQ(infer_shapes(ok).outputs[0], (Shape{2}));
}

}  // namespace
}  // namespace ordo::networks
