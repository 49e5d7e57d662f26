#include "runtime/networks/network_reader.hpp"

#include <array>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "runtime/dag/json_fields.hpp"
#include "runtime/dag/limits.hpp"
#include "runtime/dag/names.hpp"
#include "runtime/errors/input_error.hpp"
#include "runtime/json/file.hpp"
#include "runtime/json/node.hpp"
#include "runtime/json/parse.hpp"
#include "runtime/networks/shapes.hpp"

namespace ordo::networks {

namespace {

using json::Node;
using json::ObjectNode;
using json::ObjectSpec;

constexpr std::string_view format_name = "ordo-network";
constexpr std::uint64_t format_version = 1;
constexpr std::size_t layers_max = 1u << 16;
constexpr std::size_t params_max = 1u << 12;
// Parameters of the whole network: each is a KVStore key, so a few collectives per step; far
// above real networks (ResNet-50 has 161, Inception-BN 209), checked as they are read, so that a
// hostile description is refused before the step builder makes a program of it.
constexpr std::size_t keys_max = 1u << 16;
// The text of the largest description the limits allow, with room to spare (65,536 parameters
// with ops and long names take about 8 MiB): parsing a document builds a tree several times its
// size before any limit above is checked, so the text is bounded first.
constexpr std::uint64_t description_bytes_max = std::uint64_t{32} << 20;

constexpr std::array<std::string_view, 4> net_required = {"format", "version", "name", "layers"};
constexpr std::array<std::string_view, 1> net_optional = {"input"};
constexpr ObjectSpec net_spec = {"an ordo-network description", net_required, net_optional};
constexpr std::array<std::string_view, 1> layer_required = {"name"};
constexpr std::array<std::string_view, 5> layer_optional = {"params", "forward_us", "backward_us",
                                                            "inputs", "ops"};
constexpr std::array<std::string_view, 1> op_required = {"op"};
constexpr std::array<std::string_view, 4> op_optional = {"units", "kernel", "stride", "padding"};
constexpr ObjectSpec op_spec = {"a layer op", op_required, op_optional};
constexpr std::size_t ops_max = 64;
constexpr std::size_t input_dims_max = 3;
constexpr ObjectSpec layer_spec = {"a layer", layer_required, layer_optional};
constexpr std::array<std::string_view, 2> param_required = {"name", "count"};
constexpr std::array<std::string_view, 1> param_optional = {"dtype"};
constexpr ObjectSpec param_spec = {"a parameter", param_required, param_optional};

Param read_param(const Node& node) {
  const ObjectNode object(node, param_spec);
  object.reject_unknown_fields();
  Param p;
  p.name = dag::read_name(object.required("name"));
  p.count = json::read_unsigned(object.required("count"), std::uint64_t{1} << 40);
  if (const std::optional<Node> dtype = object.optional("dtype")) {
    p.dtype = dag::read_enum<dag::DType>(*dtype, "dtype");
  }
  return p;
}

LayerOp read_op(const Node& node) {
  const ObjectNode object(node, op_spec);
  object.reject_unknown_fields();
  LayerOp op;
  op.kind =
      static_cast<OpKind>(json::read_choice(object.required("op"), op_kind_names(), "layer op"));
  const auto field = [&](const char* name, std::uint32_t& into) {
    if (const std::optional<Node> n = object.optional(name)) {
      into = static_cast<std::uint32_t>(json::read_unsigned(*n, size_max));
    }
  };
  field("units", op.units);
  field("kernel", op.kernel);
  field("stride", op.stride);
  field("padding", op.padding);
  return op;
}

Layer read_layer(const Node& node, std::size_t index, std::size_t& keys) {
  const ObjectNode object(node, layer_spec);
  object.reject_unknown_fields();
  Layer layer;
  layer.name = dag::read_name(object.required("name"));
  if (const std::optional<Node> params = object.optional("params")) {
    const std::size_t n = json::read_array(*params, params_max, "parameters");
    keys += n;
    if (keys > keys_max) {
      params->fail(std::to_string(keys) + " parameters in the network up to this layer",
                   "at most " + std::to_string(keys_max) + " in the whole network");
    }
    for (std::size_t i = 0; i < n; ++i) layer.params.push_back(read_param(params->element(i)));
  }
  if (const std::optional<Node> f = object.optional("forward_us")) {
    layer.forward_us = json::read_number(*f, 0.0);
  }
  if (const std::optional<Node> b = object.optional("backward_us")) {
    layer.backward_us = json::read_number(*b, 0.0);
  }
  if (const std::optional<Node> inputs = object.optional("inputs")) {
    const std::size_t n = json::read_array(*inputs, layers_max, "layer indices");
    for (std::size_t i = 0; i < n; ++i) {
      const Node input = inputs->element(i);
      const std::uint64_t at = json::read_unsigned(input, layers_max);
      if (at >= index) {
        input.fail("layer " + std::to_string(at) + " is not an earlier layer",
                   "the index of a layer before this one (below " + std::to_string(index) + ")");
      }
      layer.inputs.push_back(static_cast<std::uint32_t>(at));
    }
  }
  if (const std::optional<Node> ops = object.optional("ops")) {
    const std::size_t n = json::read_array(*ops, ops_max, "layer ops");
    for (std::size_t i = 0; i < n; ++i) layer.ops.push_back(read_op(ops->element(i)));
  }
  return layer;
}

}  // namespace

Network read_network(std::string_view text) {
  if (text.size() > description_bytes_max) {
    throw errors::InputError("/", "description of " + std::to_string(text.size()) + " bytes",
                             "at most " + std::to_string(description_bytes_max) + " bytes");
  }
  const nlohmann::json document = json::parse_json(text);
  const ObjectNode object(Node(document, ""), net_spec);
  json::check_format(object, format_name, format_version);
  object.reject_unknown_fields();
  Network network;
  network.name = dag::read_name(object.required("name"));
  if (const std::optional<Node> input = object.optional("input")) {
    const std::size_t n = json::read_array(*input, input_dims_max, "input sizes");
    for (std::size_t i = 0; i < n; ++i) {
      network.input.push_back(
          static_cast<std::uint32_t>(json::read_unsigned(input->element(i), size_max)));
    }
  }
  const Node layers = object.required("layers");
  const std::size_t n = json::read_array(layers, layers_max, "layers");
  // A network of no layers, or of no parameters, has no collective to check: it would be "safe"
  // for want of anything to get wrong.
  if (n == 0) layers.fail("no layers", "at least one layer");
  std::size_t keys = 0;
  for (std::size_t i = 0; i < n; ++i) {
    network.layers.push_back(read_layer(layers.element(i), i, keys));
  }
  try {
    check_network(network);
  } catch (const std::invalid_argument& e) {
    throw errors::InputError("/layers", e.what(), "a network the step builder accepts");
  }
  if (keys == 0)
    layers.fail("no parameters in any layer", "at least one parameter (a KVStore key)");
  return network;
}

Network read_network_file(const std::filesystem::path& path) {
  const std::string text = json::read_json_file(path, "network description", description_bytes_max);
  try {
    return read_network(text);
  } catch (const errors::InputError& e) {
    throw errors::InputError(path.string() + ": " + e.where(), e.problem(), e.expected());
  }
}

std::string write_network(const Network& network) {
  nlohmann::json layers = nlohmann::json::array();
  for (const Layer& l : network.layers) {
    nlohmann::json params = nlohmann::json::array();
    for (const Param& p : l.params) {
      params.push_back({{"name", p.name}, {"count", p.count}, {"dtype", dag::to_string(p.dtype)}});
    }
    nlohmann::json layer = {{"name", l.name},
                            {"params", params},
                            {"forward_us", l.forward_us},
                            {"backward_us", l.backward_us},
                            {"inputs", l.inputs}};
    if (!l.ops.empty()) {
      nlohmann::json ops = nlohmann::json::array();
      for (const LayerOp& op : l.ops) {
        // Every field, defaults included: a reader sees the whole op without knowing defaults.
        ops.push_back({{"op", to_string(op.kind)},
                       {"units", op.units},
                       {"kernel", op.kernel},
                       {"stride", op.stride},
                       {"padding", op.padding}});
      }
      layer["ops"] = ops;
    }
    layers.push_back(std::move(layer));
  }
  nlohmann::json j{{"format", format_name},
                   {"version", format_version},
                   {"name", network.name},
                   {"layers", layers}};
  if (!network.input.empty()) j["input"] = network.input;
  return j.dump(1) + "\n";
}

}  // namespace ordo::networks
