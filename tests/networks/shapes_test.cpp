// Networks that say what they compute: the built-in ones have their published parameter counts
// (the figures are the architectures' own, from their papers and reference implementations), and
// descriptions whose shapes or parameters do not fit are errors that name the layer.
#include "runtime/networks/shapes.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>
#include <string>

#include "runtime/errors/input_error.hpp"
#include "runtime/networks/catalog.hpp"
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

// Inception-BN as MXNet's example symbol (inception-bn.py, 224x224) builds it, counted by hand.
// Block (input channels): 1x1, 3x3 reduce -> 3x3, double reduce -> 3x3 -> 3x3, pool -> proj;
// output channels in brackets. Convolution weights, cin * cout * k * k:
//   stem:  3*64*49 + 64*64 + 64*192*9                                   =   124,096   [192]
//   3a (192): 192*64 + 192*64 + 64*64*9 + 192*64 + 64*96*9 + 96*96*9 + 192*32
//                                                                       =   218,112   [256]
//   3b (256): 256*64 + 256*64 + 64*96*9 + 256*64 + 64*96*9 + 96*96*9 + 256*64
//                                                                       =   259,072   [320]
//   3c (320): 320*128 + 128*160*9 + 320*64 + 64*96*9 + 96*96*9          =   384,000   [576]
//   4a (576): 576*224 + 576*64 + 64*96*9 + 576*96 + 96*128*9 + 128*128*9 + 576*128
//                                                                       =   608,256   [576]
//   4b (576): 576*192 + 576*96 + 96*128*9 + 576*96 + 96*128*9 + 128*128*9 + 576*128
//                                                                       =   663,552   [576]
//   4c (576): 576*160 + 576*128 + 128*160*9 + 576*128 + 128*160*9 + 160*160*9 + 576*128
//                                                                       =   912,384   [608]
//   4d (608): 608*96 + 608*128 + 128*192*9 + 608*160 + 160*192*9 + 192*192*9 + 608*128
//                                                                       = 1,140,736   [608]
//   4e (608): 608*128 + 128*192*9 + 608*192 + 192*256*9 + 256*256*9     = 1,447,936  [1056]
//   5a (1056): 1056*352 + 1056*192 + 192*320*9 + 1056*160 + 160*224*9 + 224*224*9 + 1056*128
//                                                                       = 2,205,696  [1024]
//   5b (1024): 1024*352 + 1024*192 + 192*320*9 + 1024*192 + 192*224*9 + 224*224*9 + 1024*128
//                                                                       = 2,276,352  [1024]
//   all 69 convolutions                                                 = 10,240,192
// Their output channels sum to 10,016: the batch norms' gamma and beta are 20,032. The
// classifier is 1024*1000 + 1000 = 1,025,000. Total 10,240,192 + 20,032 + 1,025,000 =
// 11,285,224 in 69 * 3 + 2 = 209 keys. MXNet's symbol also gives each convolution a bias (10,016
// more, 11,295,240 in all, and 278 arguments), which the batch norm after it cancels; ordo's
// convolutions have none (network_inception.cpp).
TEST(BuiltInNetworks, InceptionBnHasMxnetsLayers) {
  const Network net = inception_bn(1000, {3, 224, 224}, 1.0);
  EXPECT_EQ(elements(net), 11'285'224u);
  EXPECT_EQ(param_count(net), 209u);
  const LayerShapes s = infer_shapes(net);
  EXPECT_EQ(s.outputs.back(), (Shape{1000}));
  const auto out = [&](const std::string& layer) {
    for (std::size_t l = 0; l < net.layers.size(); ++l) {
      if (net.layers[l].name == layer) return s.outputs[l];
    }
    ADD_FAILURE() << "no layer " << layer;
    return Shape{};
  };
  // 224 -> 112 (conv1) -> 55 (its 3x3 pool, rounding down) -> 27 (conv2's pool) -> 14 -> 7.
  EXPECT_EQ(out("conv1"), (Shape{64, 55, 55}));
  EXPECT_EQ(out("conv2"), (Shape{192, 27, 27}));
  EXPECT_EQ(out("in3a.concat"), (Shape{256, 27, 27}));
  EXPECT_EQ(out("in3b.concat"), (Shape{320, 27, 27}));
  EXPECT_EQ(out("in3c.concat"), (Shape{576, 14, 14}));
  EXPECT_EQ(out("in4d.concat"), (Shape{608, 14, 14}));
  EXPECT_EQ(out("in4e.concat"), (Shape{1056, 7, 7}));
  EXPECT_EQ(out("in5b.concat"), (Shape{1024, 7, 7}));
  // About 2 G multiply-adds per 224x224 image, as published for BN-Inception.
  EXPECT_GT(macs(net), 1'900'000'000u);
  EXPECT_LT(macs(net), 2'100'000'000u);
  // Smaller images fit down to 13x13 (the global average pool ends it); the keys do not change.
  const Network small = inception_bn(10, {1, 28, 28}, 1.0);
  EXPECT_EQ(infer_shapes(small).outputs.back(), (Shape{10}));
  EXPECT_EQ(param_count(small), 209u);
  EXPECT_NO_THROW(inception_bn(10, {3, 13, 13}, 1.0));
  EXPECT_THROW(inception_bn(10, {3, 12, 12}, 1.0), std::invalid_argument);
}

// The trainer asks the catalog for a network of its data's images and classes.
TEST(BuiltInNetworks, TheCatalogFitsTheDataWhereTheNetworkCan) {
  EXPECT_EQ(*builtin_network("resnet50"), resnet50(30000.0));
  const Network r50 = *builtin_network("resnet50", 4, {3, 64, 64}, 10);
  EXPECT_EQ(infer_shapes(r50).outputs.back(), (Shape{10}));
  EXPECT_EQ(r50.layers.size(), resnet50(1.0).layers.size());
  EXPECT_EQ(infer_shapes(*builtin_network("inception-bn")).outputs.back(), (Shape{1000}));
  EXPECT_EQ(infer_shapes(*builtin_network("resnet20")).outputs.back(), (Shape{10}));
  EXPECT_EQ(*builtin_network("mlp", 3), mlp(3, 256, 100.0));
  const Network classifier = *builtin_network("mlp", 3, {1, 28, 28});
  EXPECT_EQ(classifier.input, (std::vector<std::uint32_t>{1, 28, 28}));
  EXPECT_EQ(infer_shapes(classifier).outputs.back(), (Shape{10}));
  EXPECT_EQ(param_count(classifier), 6u);
  EXPECT_EQ(classifier.layers[0].params[0].count, 784u * 256u);
  EXPECT_THROW(mlp_classifier(0, 8, {4}, 2, 1.0), std::invalid_argument);
  EXPECT_THROW(builtin_network("lenet", 4, {3, 32, 32}), std::invalid_argument);
  EXPECT_FALSE(builtin_network("resnet51").has_value());
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
               errors::InputError);
  // Parameters that disagree with the ops are refused at read time.
  EXPECT_THROW(read_network(R"({"format": "ordo-network", "version": 1, "name": "n",
      "input": [4], "layers": [{"name": "a", "ops": [{"op": "dense", "units": 2}],
      "params": [{"name": "a.weight", "count": 9}, {"name": "a.bias", "count": 2}]}]})"),
               errors::InputError);
  const Network ok = read_network(R"({"format": "ordo-network", "version": 1, "name": "n",
      "input": [4], "layers": [{"name": "a", "ops": [{"op": "dense", "units": 2}],
      "params": [{"name": "a.weight", "count": 8}, {"name": "a.bias", "count": 2}]}]})");
  EXPECT_EQ(infer_shapes(ok).outputs[0], (Shape{2}));
}

TEST(Shapes, KeysAreTheNetworksNamesHeldToTheOpsByPositionAndSize) {
  // An imported model's own names: what counts is each parameter's place, size and dtype.
  constexpr dag::DType f32 = dag::DType::f32;
  Network net{"n", {}, {2, 5, 5}};
  net.layers.push_back(Layer{"c", {{"c_W", 54, f32}, {"c_B", 3, f32}}, 0.0, 0.0, {},
                             {op::conv(3, 3, 1, 1), op::bias()}});
  net.layers.push_back(Layer{"f", {}, 0.0, 0.0, {0}, {op::flatten(), op::identity()}});
  net.layers.push_back(
      Layer{"fc", {{"fc_W", 150, f32}, {"fc_B", 2, f32}}, 0.0, 0.0, {1}, {op::dense(2)}});
  EXPECT_NO_THROW(check_network(net));
  EXPECT_EQ(infer_shapes(net).outputs[1], (Shape{75}));
  EXPECT_EQ(read_network(write_network(net)), net);
  Network swapped = net;  // the bias before the weight: not the ops' order
  std::swap(swapped.layers[0].params[0], swapped.layers[0].params[1]);
  expect_invalid(swapped, "layer 'c': its parameters are not those its ops have");
  Network two_biases = net;  // dense has its own
  two_biases.layers[2].ops.push_back(op::bias());
  two_biases.layers[2].params.push_back({"fc_B2", 2, f32});
  expect_invalid(two_biases, "a second bias");
}

}  // namespace
}  // namespace ordo::networks
