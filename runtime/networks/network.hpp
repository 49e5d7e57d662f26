// A layered network as the step-DAG builder sees it: layers in topological order, each with the
// parameters it owns (one KVStore key per parameter), its compute costs and the layers it reads.
// Branches, joins and skip connections are layers with several inputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/dag/program.hpp"
#include "runtime/networks/layer_ops.hpp"

namespace ordo::networks {

struct Param {
  std::string name;
  std::uint64_t count = 0;  // elements
  dag::DType dtype = dag::DType::f32;
  friend bool operator==(const Param&, const Param&) = default;
};

struct Layer {
  std::string name;
  std::vector<Param> params;
  double forward_us = 0.0;
  double backward_us = 0.0;
  // Indices of earlier layers whose outputs this layer reads; empty means the network input.
  std::vector<std::uint32_t> inputs;
  // What it computes (layer_ops.hpp); empty for a layer known by its costs only.
  std::vector<LayerOp> ops = {};
  friend bool operator==(const Layer&, const Layer&) = default;
};

struct Network {
  std::string name;
  std::vector<Layer> layers;
  // One example's shape ({channels, height, width} or {features}); needed, with every layer's
  // ops, for training; empty for a network known by its costs only.
  std::vector<std::uint32_t> input = {};
  friend bool operator==(const Network&, const Network&) = default;
};

// Throws std::invalid_argument naming the layer when an input is not an earlier layer, a name is
// empty or repeated, or a cost is negative or not finite; and, for a network whose layers say
// what they compute, when the shapes do not fit or a layer's parameters are not the ones its ops
// have (shapes.hpp).
void check_network(const Network& network);
std::uint64_t param_count(const Network& network);  // keys
std::uint64_t param_bytes(const Network& network);

// A chain of `layers` dense layers of `width` units (one weight and one bias each) on inputs of
// `width` features, ReLU between them.
Network mlp(std::uint32_t layers, std::uint32_t width, double forward_us_per_layer);
// An MLP classifier for `input` (flattened): `layers` dense layers, each of `width` units with
// ReLU but the last, which has `classes`. Throws std::invalid_argument for no layers.
Network mlp_classifier(std::uint32_t layers, std::uint32_t width, std::vector<std::uint32_t> input,
                       std::uint32_t classes, double forward_us_total);
// ResNet-50 v1 for 224x224 images: 53 convolutions, 53 batch norms (gamma and beta), the final
// dense layer (weight and bias): 161 keys, 25.6 M parameters, bottleneck blocks with their skip
// connections. Costs are proportional to each layer's multiply-adds, scaled so that one forward
// pass takes `forward_us_total`; backward costs twice the forward. Other `classes` and `input`
// images (any of 32x32 or more: it ends in a global average) keep every layer but the ends.
Network resnet50(double forward_us_total, std::uint32_t classes = 1000,
                 std::vector<std::uint32_t> input = {3, 224, 224});
// A LeNet-style CNN for 1x28x28 images (Fashion-MNIST): two convolutions of 20 and 50 channels
// (5x5, each with batch norm, ReLU and 2x2 max pooling), a dense layer of 500 and the classifier.
Network lenet(std::uint32_t classes, double forward_us_total);
// He et al.'s CIFAR ResNet of depth 6n+2 (ResNet-20: n = 3, ResNet-56: n = 9): 16, 32 and 64
// channels, parameter-free shortcuts (option A), on `input` ({3, 32, 32} for CIFAR, {1, 28, 28}
// for Fashion-MNIST). Throws std::invalid_argument for another depth.
Network cifar_resnet(std::uint32_t depth, std::uint32_t classes, std::vector<std::uint32_t> input,
                     double forward_us_total);
// Inception-BN (Ioffe & Szegedy 2015) as MXNet's image-classification example builds it for
// 224x224 images ({3, 224, 224}; any image of 13x13 or more fits, since it ends in a global
// average): 69 convolutions with their batch norms and the classifier, 209 keys, 11.3 M parameters
// with 1000 classes; inception blocks of four branches joined along the channels, 3c and 4e halving
// the image (network_inception.cpp).
Network inception_bn(std::uint32_t classes, std::vector<std::uint32_t> input,
                     double forward_us_total);

}  // namespace ordo::networks
