#include "runtime/import/trainable.hpp"

#include <algorithm>
#include <stdexcept>

#include "runtime/import/mxnet_ops.hpp"
#include "runtime/networks/shapes.hpp"

namespace ordo::import {

void clear_ops(networks::Network& network) {
  network.input.clear();
  for (networks::Layer& layer : network.layers) layer.ops.clear();
}

namespace {

// The description format's bound on an op's sizes, so that what `ordo import` writes reads back.
std::optional<OpsProblem> oversized(const networks::Network& network) {
  constexpr std::uint32_t op_size_max = std::uint32_t{1} << 24;
  for (std::size_t l = 0; l < network.layers.size(); ++l) {
    for (const networks::LayerOp& op : network.layers[l].ops) {
      if (std::max({op.units, op.kernel, op.stride, op.padding}) > op_size_max) {
        return OpsProblem{l, "a size above 2^24 in op " + std::string(to_string(op.kind))};
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<OpsProblem> check_ops(networks::Network& network,
                                    const std::vector<std::vector<std::uint64_t>>& outputs) {
  std::optional<OpsProblem> found = oversized(network);
  if (!found) {
    try {
      const networks::LayerShapes shapes = networks::infer_shapes(network);
      for (std::size_t l = 0; l < shapes.outputs.size() && !found; ++l) {
        if (shapes.outputs[l] != outputs.at(l)) {
          found = OpsProblem{l, "the trainer's ops give " + to_string(shapes.outputs[l]) +
                                    " where the model has " + to_string(outputs[l])};
        }
      }
      if (!found) networks::check_network(network);
    } catch (const std::invalid_argument& e) {
      found = OpsProblem{std::nullopt, e.what()};
    }
  }
  if (found) clear_ops(network);
  return found;
}

}  // namespace ordo::import
