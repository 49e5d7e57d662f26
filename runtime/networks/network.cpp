#include "runtime/networks/network.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "runtime/networks/shapes.hpp"

namespace ordo::networks {

namespace {

// A network that says what its layers compute must say it of every layer, and each layer's
// parameters must be those its ops have: in their order, of their sizes and dtype. Names are the
// network's own (the KVStore's keys), so an imported model keeps its framework's.
void check_computes(const Network& network) {
  bool any = !network.input.empty();
  for (const Layer& l : network.layers) any = any || !l.ops.empty();
  if (!any) return;
  if (!computes(network)) {
    throw std::invalid_argument("network '" + network.name +
                                "': an input shape and every layer's ops are needed once one is "
                                "given");
  }
  const LayerShapes shapes = infer_shapes(network);
  const std::vector<std::vector<Shape>> ins = layer_inputs(network, shapes.outputs);
  for (std::size_t l = 0; l < network.layers.size(); ++l) {
    const Layer& layer = network.layers[l];
    const std::vector<Param> expected = walk_layer(layer.name, layer.ops, ins[l]).params;
    const auto same = [](const Param& a, const Param& b) {
      return a.count == b.count && a.dtype == b.dtype;
    };
    if (!std::equal(layer.params.begin(), layer.params.end(), expected.begin(), expected.end(),
                    same)) {
      std::string want;
      for (const Param& p : expected) {
        want += (want.empty() ? "" : ", ") + p.name + " (" + std::to_string(p.count) + ")";
      }
      throw std::invalid_argument(
          "layer '" + layer.name +
          "': its parameters are not those its ops have: " + (want.empty() ? "none" : want));
    }
  }
}

}  // namespace

void check_network(const Network& network) {
  std::set<std::string> names;
  for (std::size_t i = 0; i < network.layers.size(); ++i) {
    const Layer& layer = network.layers[i];
    const std::string where = "network '" + network.name + "' layer " + std::to_string(i);
    if (layer.name.empty()) throw std::invalid_argument(where + ": empty name");
    if (!names.insert(layer.name).second) {
      throw std::invalid_argument(where + ": layer name '" + layer.name + "' repeated");
    }
    for (std::size_t j = 0; j < layer.inputs.size(); ++j) {
      const std::uint32_t input = layer.inputs[j];
      for (std::size_t before = 0; before < j; ++before) {
        if (layer.inputs[before] == input) {
          throw std::invalid_argument(where + " ('" + layer.name + "'): input " +
                                      std::to_string(input) + " listed twice");
        }
      }
      if (input >= i) {
        throw std::invalid_argument(where + " ('" + layer.name + "'): input " +
                                    std::to_string(input) + " is not an earlier layer");
      }
    }
    for (double cost : {layer.forward_us, layer.backward_us}) {
      if (!std::isfinite(cost) || cost < 0.0) {
        throw std::invalid_argument(where + " ('" + layer.name +
                                    "'): costs must be finite and non-negative");
      }
    }
    for (const Param& p : layer.params) {
      if (p.name.empty() || !names.insert(p.name).second) {
        throw std::invalid_argument(where + " ('" + layer.name + "'): parameter name '" + p.name +
                                    "' empty or repeated");
      }
    }
  }
  check_computes(network);
}

std::uint64_t param_count(const Network& network) {
  std::uint64_t n = 0;
  for (const Layer& layer : network.layers) n += layer.params.size();
  return n;
}

std::uint64_t param_bytes(const Network& network) {
  std::uint64_t bytes = 0;
  for (const Layer& layer : network.layers) {
    for (const Param& p : layer.params) bytes += p.count * dag::dtype_bytes(p.dtype);
  }
  return bytes;
}

Network mlp(std::uint32_t layers, std::uint32_t width, double forward_us_per_layer) {
  Network net{"mlp" + std::to_string(layers) + "x" + std::to_string(width), {}, {width}};
  for (std::uint32_t l = 0; l < layers; ++l) {
    const std::string name = "dense" + std::to_string(l);
    Layer layer{name,
                {{name + ".weight", std::uint64_t{width} * width, dag::DType::f32},
                 {name + ".bias", width, dag::DType::f32}},
                forward_us_per_layer,
                2.0 * forward_us_per_layer,
                {},
                {{OpKind::dense, width, 0, 1, 0}}};
    if (l + 1 < layers) layer.ops.push_back({OpKind::relu, 0, 0, 1, 0});
    if (l > 0) layer.inputs = {l - 1};
    net.layers.push_back(std::move(layer));
  }
  check_network(net);
  return net;
}

}  // namespace ordo::networks
