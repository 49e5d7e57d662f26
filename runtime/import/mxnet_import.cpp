#include "runtime/import/mxnet_import.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "runtime/dag/name_rules.hpp"
#include "runtime/errors/input_error.hpp"
#include "runtime/import/mxnet_ops.hpp"
#include "runtime/import/mxnet_train_ops.hpp"
#include "runtime/import/trainable.hpp"
#include "runtime/json/quote.hpp"
#include "runtime/networks/catalog.hpp"

namespace ordo::import {
namespace {

using json::quote;

std::string place(std::size_t index) { return "/nodes/" + std::to_string(index); }

[[noreturn]] void fail(std::size_t index, const MxNode& node, const std::string& problem,
                       const std::string& expected) {
  throw errors::InputError(
      place(index), "node " + quote(node.name) + " (" + quote(node.op) + "): " + problem, expected);
}

void check_name(std::size_t index, const MxNode& node) {
  if (const std::optional<std::string> problem = dag::name_problem(node.name)) {
    fail(index, node, "its name " + *problem, "a name ordo can use as a layer or key name");
  }
}

// What a variable node turned out to be, by its first use.
enum class VarUse : std::uint8_t { unused, data, param, aux, label };

}  // namespace

ImportedModel import_mxnet_model(const MxSymbol& symbol, const MxImportOptions& options) {
  if (options.data_shape.empty()) {
    throw errors::InputError("/", "no data shape",
                             "the shape of one example, e.g. 3,224,224 (MXNet symbols carry none)");
  }
  const double us_per_mac = networks::us_per_mac();
  networks::Network net;
  net.name = options.name;
  const std::size_t n = symbol.nodes.size();
  std::vector<std::optional<Shape>> shape(n);  // of each node's output 0, once known
  std::vector<std::optional<std::uint32_t>> layer_of(n);
  std::vector<VarUse> use(n, VarUse::unused);
  std::optional<std::size_t> data_var;
  // Whether the trainer computes every node so far, and what each layer outputs as MXNet infers.
  ImportedModel model;
  std::vector<Shape> outputs;
  std::vector<std::size_t> node_of_layer;
  std::size_t last_op = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (symbol.nodes[i].op != "null") last_op = i;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const MxNode& node = symbol.nodes[i];
    if (node.op == "null") continue;
    if (!mx_known(node.op)) {
      fail(i, node, "an operator the importer does not know", "one of " + mx_known_ops());
    }
    check_name(i, node);
    std::vector<InputRole> roles;
    try {
      roles = mx_input_roles(node);
    } catch (const std::invalid_argument& e) {
      fail(i, node, e.what(), "attributes MXNet accepts");
    }
    networks::Layer layer;
    layer.name = node.name;
    std::vector<Shape> data;
    std::vector<std::size_t> param_vars;
    for (std::size_t k = 0; k < node.inputs.size(); ++k) {
      const MxEntry in = node.inputs[k];
      const MxNode& source = symbol.nodes[in.node];
      const InputRole role = roles[k];
      if (source.op != "null") {
        if (role != InputRole::data) {
          fail(i, node, "input " + std::to_string(k) + " is an operator's output",
               "a variable there (a weight, bias or state)");
        }
        if (in.output != 0) {
          fail(i, node,
               "it reads output " + std::to_string(in.output) + " of " + quote(source.name),
               "output 0 (the importer follows each operator's first output)");
        }
        data.push_back(*shape[in.node]);
        const std::uint32_t from = *layer_of[in.node];
        if (std::find(layer.inputs.begin(), layer.inputs.end(), from) == layer.inputs.end()) {
          layer.inputs.push_back(from);
        }
        continue;
      }
      const VarUse wanted = role == InputRole::data    ? VarUse::data
                            : role == InputRole::param ? VarUse::param
                            : role == InputRole::aux   ? VarUse::aux
                                                       : VarUse::label;
      if (use[in.node] != VarUse::unused && (use[in.node] != wanted || wanted == VarUse::param)) {
        fail(i, node, "variable " + quote(source.name) + " is used a second time",
             "each parameter used by one operator, and data only as data");
      }
      use[in.node] = wanted;
      if (wanted == VarUse::data) {
        if (data_var && *data_var != in.node) {
          fail(i, node,
               "a second data input " + quote(source.name) + " besides " +
                   quote(symbol.nodes[*data_var].name),
               "one data input (an ordo network takes one)");
        }
        data_var = in.node;
        data.push_back(options.data_shape);
      } else if (wanted == VarUse::param) {
        param_vars.push_back(in.node);
      }
    }
    OpShapes s;
    try {
      s = mx_infer(node, data);
    } catch (const std::invalid_argument& e) {
      fail(i, node, e.what(), "shapes and attributes the operator takes");
    }
    if (s.params.size() != param_vars.size()) {
      fail(i, node, std::to_string(param_vars.size()) + " parameter inputs",
           std::to_string(s.params.size()) + " (as its attributes say)");
    }
    for (std::size_t p = 0; p < param_vars.size(); ++p) {
      const MxNode& var = symbol.nodes[param_vars[p]];
      check_name(param_vars[p], var);
      std::uint64_t count = 0;
      try {
        count = elements(s.params[p]);
      } catch (const std::invalid_argument& e) {
        fail(i, node, "parameter " + quote(var.name) + ": " + e.what(), "a real layer's size");
      }
      layer.params.push_back(networks::Param{var.name, count, dag::DType::f32});
    }
    if (model.trainable()) {
      try {
        layer.ops = mx_layer_ops(node, data, i == last_op);
        const networks::OpKind first = layer.ops.front().kind;
        if ((first == networks::OpKind::add || first == networks::OpKind::concat) &&
            layer.inputs.size() != data.size()) {
          throw std::invalid_argument("it reads one layer twice; the trainer joins distinct ones");
        }
      } catch (const std::invalid_argument& e) {
        model.untrainable_at = place(i);
        model.untrainable = "node " + quote(node.name) + " (" + quote(node.op) + "): " + e.what();
      }
    }
    layer.forward_us = us_per_mac * static_cast<double>(s.macs);
    layer.backward_us = 2.0 * layer.forward_us;
    outputs.push_back(s.output);
    node_of_layer.push_back(i);
    shape[i] = std::move(s.output);
    layer_of[i] = static_cast<std::uint32_t>(net.layers.size());
    net.layers.push_back(std::move(layer));
  }
  if (net.layers.empty()) throw errors::InputError("/nodes", "no operators", "at least one");
  if (networks::param_count(net) == 0) {
    throw errors::InputError("/nodes", "no learnable parameters, so no gradient to reduce",
                             "a model with weights");
  }
  if (model.trainable()) {
    net.input.assign(options.data_shape.begin(), options.data_shape.end());
    if (const std::optional<OpsProblem> problem = check_ops(net, outputs)) {
      if (problem->layer) {
        const std::size_t i = node_of_layer.at(*problem->layer);
        model.untrainable_at = place(i);
        model.untrainable = "node " + quote(symbol.nodes[i].name) + " (" +
                            quote(symbol.nodes[i].op) + "): " + problem->problem;
      } else {
        model.untrainable_at = "/nodes";
        model.untrainable = problem->problem;
      }
    }
  } else {
    clear_ops(net);
  }
  try {
    networks::check_network(net);
  } catch (const std::invalid_argument& e) {
    throw errors::InputError("/nodes", e.what(), "a network ordo can build a step of");
  }
  model.network = std::move(net);
  return model;
}

networks::Network import_mxnet(const MxSymbol& symbol, const MxImportOptions& options) {
  return import_mxnet_model(symbol, options).network;
}

}  // namespace ordo::import
