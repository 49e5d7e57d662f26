// Shape inference over a network whose layers say what they compute: each layer's output shape
// from the network's input shape, the parameters each layer's ops have (so a description cannot
// disagree with what the trainer builds), and the multiply-adds of one example, from which
// costs are estimated. Shapes are per example: {channels, height, width} or {features}.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/networks/network.hpp"

namespace ordo::networks {

using Shape = std::vector<std::uint64_t>;

// Every size an op or an input has (units, kernel, stride, padding, input dimensions) is at most
// this, so that products of a few of them stay far inside 64 bits.
inline constexpr std::uint64_t size_max = std::uint64_t{1} << 24;

struct LayerShapes {
  std::vector<Shape> outputs;       // per layer
  std::vector<std::uint64_t> macs;  // per layer, one example's multiply-adds
};

// True when the network has an input shape and every layer has ops.
bool computes(const Network& network);

// Every layer's output shape and multiply-adds (walk_layer); throws std::invalid_argument when
// !computes(network) or a shape does not fit: a convolution or pool on a non-image, a window
// larger than its padded input, joined inputs of different shapes, an op with a zero size.
LayerShapes infer_shapes(const Network& network);

// One layer's ops on inputs of these shapes: its output shape, one example's multiply-adds, and
// the parameters its ops have, in the order the layer holds them, with the names a network built
// here gives them: "<layer>.weight" and "<layer>.bias" for dense, "<layer>.weight" for a
// convolution, "<layer>.bias" for a bias, "<layer>.bn.gamma" and "<layer>.bn.beta" for batch
// norm. A network may name its keys otherwise (an imported model keeps its framework's names):
// check_network holds its parameters to these by position, size and dtype. Throws
// std::invalid_argument naming the layer and op when a shape does not fit, or a layer has two
// weighted ops, two biases or two batch norms.
struct LayerResult {
  Shape output;
  std::uint64_t macs = 0;
  std::vector<Param> params;
};
LayerResult walk_layer(const std::string& layer, const std::vector<LayerOp>& ops,
                       const std::vector<Shape>& inputs);

// The network's input shape; throws std::invalid_argument unless it is {features} or
// {channels, height, width} with sizes 1 to 2^24.
Shape input_shape(const Network& network);
// Each layer's input shapes, given every layer's output shape.
std::vector<std::vector<Shape>> layer_inputs(const Network& network,
                                             const std::vector<Shape>& outputs);

// The step builder's costs from multiply-adds: forward_us_total shared in proportion, backward
// twice each forward (two products per forward product: the input's and the weights' gradients).
void set_costs_from_macs(Network& network, double forward_us_total);

}  // namespace ordo::networks
