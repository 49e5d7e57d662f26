// A layered network as the step-DAG builder sees it: layers in topological order, each with the
// parameters it owns (one KVStore key per parameter), its compute costs and the layers it reads.
// Branches, joins and skip connections are layers with several inputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/dag/program.hpp"

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
  friend bool operator==(const Layer&, const Layer&) = default;
};

struct Network {
  std::string name;
  std::vector<Layer> layers;
  friend bool operator==(const Network&, const Network&) = default;
};

// Throws std::invalid_argument naming the layer when an input is not an earlier layer, a name is
// empty or repeated, or a cost is negative or not finite.
void check_network(const Network& network);
std::uint64_t param_count(const Network& network);  // keys
std::uint64_t param_bytes(const Network& network);

// A chain of `layers` dense layers of `width` units (one weight and one bias each).
Network mlp(std::uint32_t layers, std::uint32_t width, double forward_us_per_layer);
// ResNet-50 v1 for 224x224 images: 53 convolutions, 53 batch norms (gamma and beta), the final
// dense layer (weight and bias): 161 keys, 25.6 M parameters, bottleneck blocks with their skip
// connections. Costs are proportional to each layer's multiply-adds, scaled so that one forward
// pass takes `forward_us_total`; backward costs twice the forward.
Network resnet50(double forward_us_total);

}  // namespace ordo::networks
