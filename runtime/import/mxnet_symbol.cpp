#include "runtime/import/mxnet_symbol.hpp"

#include <array>
#include <nlohmann/json.hpp>
#include <optional>

#include "runtime/dag/dump_error.hpp"
#include "runtime/json/node.hpp"
#include "runtime/json/parse.hpp"

namespace ordo::import {
namespace {

using json::Node;

// The fields a reader needs; MXNet writes more (arg_nodes, node_row_ptr, backward_source_id...),
// which say nothing the nodes do not.
Node field(const Node& object, std::string_view key, std::string_view what) {
  const nlohmann::json& value = object.value();
  const auto it = value.find(std::string(key));
  if (it == value.end()) object.fail("no '" + std::string(key) + "'", std::string(what));
  return Node(*it, object.pointer() + "/" + std::string(key));
}

std::optional<Node> optional_field(const Node& object, std::string_view key) {
  const nlohmann::json& value = object.value();
  const auto it = value.find(std::string(key));
  if (it == value.end()) return std::nullopt;
  return Node(*it, object.pointer() + "/" + std::string(key));
}

void read_attrs(const Node& node, std::map<std::string, std::string>& attrs) {
  if (!node.value().is_object()) node.fail_found("an object of string attributes");
  if (node.value().size() + attrs.size() > mx_attrs_max) {
    node.fail("more than " + std::to_string(mx_attrs_max) + " attributes", "fewer");
  }
  for (const auto& [key, value] : node.value().items()) {
    const Node v(value, node.pointer() + "/" + key);
    if (!value.is_string()) v.fail_found("a string (MXNet stores every attribute as one)");
    attrs[key] = value.get<std::string>();
  }
}

MxEntry read_entry(const Node& node, std::size_t nodes_before, std::string_view what) {
  const std::size_t n = json::read_array(node, 3, what);
  if (n < 2)
    node.fail("an entry of " + std::to_string(n) + " numbers",
              "[node, output] or [node, output, version]");
  MxEntry e;
  const std::uint64_t at = json::read_unsigned(node.element(0), UINT32_MAX);
  if (at >= nodes_before) {
    node.element(0).fail("node " + std::to_string(at),
                         "an earlier node, below " + std::to_string(nodes_before) +
                             " (a symbol lists its nodes in topological order)");
  }
  e.node = static_cast<std::uint32_t>(at);
  e.output = static_cast<std::uint32_t>(json::read_unsigned(node.element(1), 1u << 16));
  return e;
}

MxNode read_node(const Node& node, std::size_t index) {
  if (!node.value().is_object()) node.fail_found("a symbol node (an object with op, name, inputs)");
  MxNode out;
  out.op = json::read_string(field(node, "op", "a node's operator"), "operator");
  out.name = json::read_string(field(node, "name", "a node's name"), "name");
  if (const std::optional<Node> inputs = optional_field(node, "inputs")) {
    const std::size_t n = json::read_array(*inputs, mx_inputs_max, "inputs");
    for (std::size_t i = 0; i < n; ++i)
      out.inputs.push_back(read_entry(inputs->element(i), index, "an input"));
  }
  for (const std::string_view key : {"attrs", "param", "attr"}) {
    if (const std::optional<Node> attrs = optional_field(node, key)) read_attrs(*attrs, out.attrs);
  }
  return out;
}

}  // namespace

MxSymbol read_mxnet_symbol(std::string_view text) {
  const nlohmann::json doc = json::parse_json(text);
  const Node root(doc, "");
  if (!doc.is_object()) root.fail_found("an MXNet symbol (an object with nodes and heads)");
  MxSymbol symbol;
  const Node nodes = field(root, "nodes", "an MXNet symbol (an object with nodes and heads)");
  const std::size_t n = json::read_array(nodes, mx_nodes_max, "nodes");
  if (n == 0) nodes.fail("no nodes", "at least one");
  symbol.nodes.reserve(n);
  for (std::size_t i = 0; i < n; ++i) symbol.nodes.push_back(read_node(nodes.element(i), i));
  if (const std::optional<Node> heads = optional_field(root, "heads")) {
    const std::size_t h = json::read_array(*heads, mx_inputs_max, "heads");
    for (std::size_t i = 0; i < h; ++i)
      symbol.heads.push_back(read_entry(heads->element(i), n, "a head"));
  }
  return symbol;
}

}  // namespace ordo::import
