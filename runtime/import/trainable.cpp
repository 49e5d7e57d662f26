#include "runtime/import/trainable.hpp"

#include <stdexcept>

#include "runtime/import/mxnet_ops.hpp"
#include "runtime/networks/shapes.hpp"

namespace ordo::import {

void clear_ops(networks::Network& network) {
  network.input.clear();
  for (networks::Layer& layer : network.layers) layer.ops.clear();
}

std::optional<OpsProblem> check_ops(networks::Network& network,
                                    const std::vector<std::vector<std::uint64_t>>& outputs) {
  std::optional<OpsProblem> found;
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
  if (found) clear_ops(network);
  return found;
}

}  // namespace ordo::import
