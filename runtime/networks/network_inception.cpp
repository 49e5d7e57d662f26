// Inception-BN (Ioffe & Szegedy 2015, "Batch Normalization"), in the configuration MXNet's
// image-classification example builds for 224x224 images: a 7x7 stem, a 1x1 and 3x3 pair, ten
// inception blocks (3a-3c, 4a-4e, 5a, 5b) and a linear classifier on the global average.
//
// Each convolution with its batch norm and ReLU is one layer. A regular block has four branches
// joined along the channels: a 1x1 convolution; a 1x1 reduction then a 3x3; a 1x1 reduction then
// two 3x3s; a 3x3 pool (stride 1, padding 1) then a 1x1 projection. The reduction blocks 3c and
// 4e halve the image: no 1x1 branch, the second 3x3 of each convolution branch has stride 2, and
// the pool branch is a 3x3 max pool of stride 2 and padding 1 with no projection. The stem's
// pools have no padding and round down, as MXNet's default ("valid") pooling does.
//
// Two differences from MXNet's symbol, neither changing what the network computes:
//   - MXNet's convolutions carry a bias; here they do not, as in the ResNets, since the batch norm
//     that follows each one subtracts the channel's mean and with it any bias (MXNet's symbol
//     has 10,016 such biases, one per convolution output channel).
//   - MXNet ends with a 7x7 average pool, which on 224x224 input is the global average over
//     the final 7x7 image; the global average pool also takes smaller images.
#include <string>
#include <utility>

#include "runtime/networks/network.hpp"
#include "runtime/networks/network_builder.hpp"

namespace ordo::networks {

namespace {

std::vector<LayerOp> conv_bn_relu(std::uint32_t units, std::uint32_t kernel, std::uint32_t stride,
                                  std::uint32_t padding) {
  return {op::conv(units, kernel, stride, padding), op::batch_norm(), op::relu()};
}

// The widths of one regular block's branches.
struct Widths {
  std::uint32_t c1x1;
  std::uint32_t c3x3_reduce;
  std::uint32_t c3x3;
  std::uint32_t double_reduce;
  std::uint32_t double_3x3;
  std::uint32_t proj;
  bool max_pool;  // the pool before the projection: max (5b) or average (the others)
};

std::uint32_t regular_block(NetworkBuilder& b, const std::string& name, std::uint32_t x,
                            const Widths& w) {
  const std::uint32_t one = b.add(name + ".1x1", {x}, conv_bn_relu(w.c1x1, 1, 1, 0));
  const std::uint32_t r3 = b.add(name + ".3x3_reduce", {x}, conv_bn_relu(w.c3x3_reduce, 1, 1, 0));
  const std::uint32_t c3 = b.add(name + ".3x3", {r3}, conv_bn_relu(w.c3x3, 3, 1, 1));
  const std::uint32_t rd =
      b.add(name + ".double_3x3_reduce", {x}, conv_bn_relu(w.double_reduce, 1, 1, 0));
  const std::uint32_t d0 = b.add(name + ".double_3x3_0", {rd}, conv_bn_relu(w.double_3x3, 3, 1, 1));
  const std::uint32_t d1 = b.add(name + ".double_3x3_1", {d0}, conv_bn_relu(w.double_3x3, 3, 1, 1));
  std::vector<LayerOp> proj = {w.max_pool ? op::max_pool(3, 1, 1) : op::avg_pool(3, 1, 1)};
  for (const LayerOp& o : conv_bn_relu(w.proj, 1, 1, 0)) proj.push_back(o);
  const std::uint32_t p = b.add(name + ".proj", {x}, std::move(proj));
  return b.add(name + ".concat", {one, c3, d1, p}, {op::concat()});
}

std::uint32_t reduction_block(NetworkBuilder& b, const std::string& name, std::uint32_t x,
                              std::uint32_t c3x3_reduce, std::uint32_t c3x3,
                              std::uint32_t double_reduce, std::uint32_t double_3x3) {
  const std::uint32_t r3 = b.add(name + ".3x3_reduce", {x}, conv_bn_relu(c3x3_reduce, 1, 1, 0));
  const std::uint32_t c3 = b.add(name + ".3x3", {r3}, conv_bn_relu(c3x3, 3, 2, 1));
  const std::uint32_t rd =
      b.add(name + ".double_3x3_reduce", {x}, conv_bn_relu(double_reduce, 1, 1, 0));
  const std::uint32_t d0 = b.add(name + ".double_3x3_0", {rd}, conv_bn_relu(double_3x3, 3, 1, 1));
  const std::uint32_t d1 = b.add(name + ".double_3x3_1", {d0}, conv_bn_relu(double_3x3, 3, 2, 1));
  const std::uint32_t p = b.add(name + ".pool", {x}, {op::max_pool(3, 2, 1)});
  return b.add(name + ".concat", {c3, d1, p}, {op::concat()});
}

}  // namespace

Network inception_bn(std::uint32_t classes, std::vector<std::uint32_t> input,
                     double forward_us_total) {
  NetworkBuilder b("inception-bn", std::move(input));
  std::vector<LayerOp> stem = conv_bn_relu(64, 7, 2, 3);
  stem.push_back(op::max_pool(3, 2, 0));
  std::uint32_t x = b.add("conv1", {}, std::move(stem));
  x = b.add("conv2_reduce", {x}, conv_bn_relu(64, 1, 1, 0));
  std::vector<LayerOp> conv2 = conv_bn_relu(192, 3, 1, 1);
  conv2.push_back(op::max_pool(3, 2, 0));
  x = b.add("conv2", {x}, std::move(conv2));
  // Widths: 1x1, 3x3 reduce, 3x3, double 3x3 reduce, double 3x3, projection.
  x = regular_block(b, "in3a", x, {64, 64, 64, 64, 96, 32, false});
  x = regular_block(b, "in3b", x, {64, 64, 96, 64, 96, 64, false});
  x = reduction_block(b, "in3c", x, 128, 160, 64, 96);
  x = regular_block(b, "in4a", x, {224, 64, 96, 96, 128, 128, false});
  x = regular_block(b, "in4b", x, {192, 96, 128, 96, 128, 128, false});
  x = regular_block(b, "in4c", x, {160, 128, 160, 128, 160, 128, false});
  x = regular_block(b, "in4d", x, {96, 128, 192, 160, 192, 128, false});
  x = reduction_block(b, "in4e", x, 128, 192, 192, 256);
  x = regular_block(b, "in5a", x, {352, 192, 320, 160, 224, 128, false});
  x = regular_block(b, "in5b", x, {352, 192, 320, 192, 224, 128, true});
  b.add("fc", {x}, {op::global_avg_pool(), op::dense(classes)});
  return b.build(forward_us_total);
}

}  // namespace ordo::networks
