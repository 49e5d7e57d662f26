// Builds a network layer by layer from what each layer computes: parameters and shapes come from
// the ops (shapes.hpp), costs from the multiply-adds. The built-in networks are written with it,
// so their descriptions and what the trainer builds from them cannot disagree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/networks/network.hpp"
#include "runtime/networks/shapes.hpp"

namespace ordo::networks {

class NetworkBuilder {
 public:
  NetworkBuilder(std::string name, std::vector<std::uint32_t> input);
  // A layer reading the outputs of `inputs` (none: the network input); returns its index.
  // Throws std::invalid_argument when its ops do not fit their inputs.
  std::uint32_t add(std::string name, std::vector<std::uint32_t> inputs, std::vector<LayerOp> ops);
  const Shape& output(std::uint32_t layer) const { return outputs_.at(layer); }
  // The network, with one forward pass costing `forward_us_total` shared by multiply-adds.
  Network build(double forward_us_total);

 private:
  Network net_;
  std::vector<Shape> outputs_;
};

}  // namespace ordo::networks
