#include "runtime/import/onnx_import.hpp"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>

#include "runtime/dag/name_rules.hpp"
#include "runtime/errors/input_error.hpp"
#include "runtime/import/mxnet_ops.hpp"
#include "runtime/import/onnx_initial_values.hpp"
#include "runtime/import/onnx_nodes.hpp"
#include "runtime/import/onnx_train_ops.hpp"
#include "runtime/import/refusal.hpp"
#include "runtime/import/trainable.hpp"
#include "runtime/import/window.hpp"
#include "runtime/json/quote.hpp"
#include "runtime/networks/catalog.hpp"

namespace ordo::import {
namespace {

using json::quote;
using onnx_detail::attr_int;
using onnx_detail::attr_ints;
using onnx_detail::attribute;
using onnx_detail::axis_of;
using onnx_detail::Dims;
using onnx_detail::Tensor;
using onnx_detail::train_ops;

constexpr std::uint64_t dim_max = std::uint64_t{1} << 31;
constexpr std::size_t small_values_max = 64;  // int64 constants read for their values (shapes)

Dims checked_dims(const google::protobuf::RepeatedField<std::int64_t>& dims) {
  Dims out;
  for (const std::int64_t d : dims) {
    if (d < 0 || static_cast<std::uint64_t>(d) > dim_max) {
      bad("a dimension of " + std::to_string(d) + "; expected 0 to 2^31");
    }
    out.push_back(static_cast<std::uint64_t>(d));
  }
  elements(out);  // refuses more than 2^40 elements
  return out;
}

std::optional<std::vector<std::int64_t>> int64_values(const onnx::TensorProto& t,
                                                      const Dims& dims) {
  if (t.data_type() != onnx::TensorProto_DataType_INT64) return std::nullopt;
  const std::uint64_t n = elements(dims);
  if (n > small_values_max) return std::nullopt;
  std::vector<std::int64_t> v;
  if (static_cast<std::uint64_t>(t.int64_data_size()) == n) {
    v.assign(t.int64_data().begin(), t.int64_data().end());
  } else if (t.raw_data().size() == n * 8) {
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint64_t u = 0;
      for (int b = 0; b < 8; ++b) {
        u |= std::uint64_t{static_cast<unsigned char>(
                 t.raw_data()[i * 8 + static_cast<std::uint64_t>(b)])}
             << (8 * b);
      }
      v.push_back(static_cast<std::int64_t>(u));
    }
  } else {
    return std::nullopt;
  }
  return v;
}

Tensor constant_of(const onnx::TensorProto& t, const std::string& name) {
  Tensor c;
  c.constant = true;
  c.is_float = t.data_type() == onnx::TensorProto_DataType_FLOAT ||
               t.data_type() == onnx::TensorProto_DataType_FLOAT16 ||
               t.data_type() == onnx::TensorProto_DataType_DOUBLE ||
               t.data_type() == onnx::TensorProto_DataType_BFLOAT16;
  c.dims = checked_dims(t.dims());
  c.values = int64_values(t, *c.dims);
  c.root = name;
  return c;
}

std::uint64_t positive(std::int64_t v, const std::string& what) {
  if (v < 1 || static_cast<std::uint64_t>(v) > dim_max) {
    bad(what + " " + std::to_string(v) + "; expected 1 to 2^31");
  }
  return static_cast<std::uint64_t>(v);
}

std::uint64_t non_negative(std::int64_t v, const std::string& what) {
  if (v < 0 || static_cast<std::uint64_t>(v) > dim_max) {
    bad(what + " " + std::to_string(v) + "; expected 0 to 2^31");
  }
  return static_cast<std::uint64_t>(v);
}

struct Inferred {
  Dims out;
  std::uint64_t macs = 0;  // per example
};

// A 2-D windowed op (Conv, pooling) on an NCHW input.
Dims window_out(const onnx::NodeProto& node, const Dims& in, std::uint64_t channels_out,
                std::uint64_t kh, std::uint64_t kw) {
  if (in.size() != 4) bad("its input " + to_string(in) + " is not NCHW");
  const auto strides = attr_ints(node, "strides", {1, 1});
  const auto dilations = attr_ints(node, "dilations", {1, 1});
  auto pads = attr_ints(node, "pads", {0, 0, 0, 0});
  if (strides.size() != 2 || dilations.size() != 2 || pads.size() != 4) {
    bad("strides, dilations or pads not of a 2-D window");
  }
  const onnx::AttributeProto* auto_pad = attribute(node, "auto_pad");
  const std::string mode = auto_pad == nullptr ? "NOTSET" : auto_pad->s();
  const bool ceil = attr_int(node, "ceil_mode", 0) != 0;
  Dims out = {in[0], channels_out, 0, 0};
  const std::uint64_t k[2] = {kh, kw};
  for (int a = 0; a < 2; ++a) {
    const std::uint64_t stride = positive(strides[static_cast<std::size_t>(a)], "a stride of");
    const std::uint64_t size = in[2 + static_cast<std::size_t>(a)];
    if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
      out[2 + static_cast<std::size_t>(a)] = (size + stride - 1) / stride;
    } else if (mode == "NOTSET" || mode == "VALID") {
      const bool valid = mode == "VALID";
      out[2 + static_cast<std::size_t>(a)] =
          window_output(size, k[a], stride,
                        valid ? 0 : non_negative(pads[static_cast<std::size_t>(a)], "a pad of"),
                        valid ? 0 : non_negative(pads[static_cast<std::size_t>(a) + 2], "a pad of"),
                        positive(dilations[static_cast<std::size_t>(a)], "a dilation of"), ceil);
    } else {
      bad("auto_pad '" + mode + "'");
    }
  }
  return out;
}

std::uint64_t batch(const Dims& d) { return d.empty() || d[0] == 0 ? 1 : d[0]; }

Dims broadcast(const std::vector<Dims>& shapes) {
  Dims out;
  for (const Dims& s : shapes) {
    if (s.size() > out.size()) out.insert(out.begin(), s.size() - out.size(), 1);
    for (std::size_t i = 0; i < s.size(); ++i) {
      std::uint64_t& o = out[out.size() - s.size() + i];
      const std::uint64_t v = s[i];
      if (o == 1) {
        o = v;
      } else if (v != 1 && v != o) {
        bad("shapes " + to_string(shapes[0]) + " and " + to_string(s) + " do not broadcast");
      }
    }
  }
  return out;
}

// ONNX Reshape: 0 keeps the input's dimension, -1 takes what the others leave.
Dims reshaped(const Dims& in, const std::vector<std::int64_t>& want) {
  Dims out;
  std::optional<std::size_t> infer_at;
  std::uint64_t known = 1;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (want[i] == -1) {
      if (infer_at) bad("two -1 in a shape");
      infer_at = i;
      out.push_back(1);
      continue;
    }
    const std::uint64_t d =
        want[i] == 0 && i < in.size() ? in[i] : non_negative(want[i], "a dimension of");
    out.push_back(d);
    known *= d == 0 ? 1 : d;
  }
  if (infer_at) out[*infer_at] = elements(in) / known;
  if (elements(out) != elements(in)) bad("a reshape of " + to_string(in) + " to " + to_string(out));
  return out;
}

// The dims of a constant that a node makes of constants alone, where the importer knows the
// operator (Reshape, Unsqueeze with its axes as an attribute); nullopt elsewhere.
std::optional<Dims> folded_dims(const onnx::NodeProto& node, const std::vector<const Tensor*>& in) {
  if (in.empty() || in[0] == nullptr || !in[0]->dims) return std::nullopt;
  const Dims& d = *in[0]->dims;
  if (node.op_type() == "Reshape" && in.size() > 1 && in[1] != nullptr && in[1]->values) {
    return reshaped(d, *in[1]->values);
  }
  if (node.op_type() == "Unsqueeze" && attribute(node, "axes") != nullptr) {
    Dims out = d;
    std::vector<std::int64_t> axes = attr_ints(node, "axes", {});
    std::sort(axes.begin(), axes.end());
    for (const std::int64_t a : axes) {
      const std::size_t at = axis_of(a, out.size());
      if (at > out.size()) bad("axis " + std::to_string(a));
      out.insert(out.begin() + static_cast<std::ptrdiff_t>(at), 1);
    }
    return out;
  }
  if (node.op_type() == "Identity") return d;
  return std::nullopt;
}

constexpr std::string_view same_shape_ops[] = {
    "Relu",    "LeakyRelu",  "PRelu",    "Sigmoid", "Tanh", "BatchNormalization", "Dropout", "LRN",
    "Softmax", "LogSoftmax", "Identity", "Clip",    "Elu"};
constexpr std::string_view elementwise_ops[] = {"Add", "Sum", "Mul", "Sub",
                                                "Div", "Max", "Min", "Mean"};
constexpr std::string_view other_ops[] = {
    "Conv", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool",
    "Gemm", "MatMul",  "Flatten",     "Reshape",           "Concat"};

bool in(std::string_view op, std::span<const std::string_view> list) {
  return std::find(list.begin(), list.end(), op) != list.end();
}

std::string known_ops() {
  std::string out;
  for (std::string_view op : same_shape_ops)
    out += std::string(out.empty() ? "" : ", ") + std::string(op);
  for (std::string_view op : elementwise_ops) out += ", " + std::string(op);
  for (std::string_view op : other_ops) out += ", " + std::string(op);
  return out + ", and on constants alone any operator (Constant, ConstantOfShape, Unsqueeze...)";
}

// The output shape and multiply-adds of a computing node, given its inputs (data shapes, and
// the constants' dims where the rule needs them).
Inferred infer(const onnx::NodeProto& node, const std::vector<const Tensor*>& inputs) {
  const std::string& op = node.op_type();
  std::vector<Dims> data;
  for (const Tensor* t : inputs) {
    if (t != nullptr && !t->constant) {
      if (!t->dims) bad("an input of unknown shape");
      data.push_back(*t->dims);
    }
  }
  if (data.empty()) bad("no data input");
  const Dims& in0 = data[0];
  const auto const_dims = [&](std::size_t k) -> const Dims& {
    if (k >= inputs.size() || inputs[k] == nullptr || !inputs[k]->constant || !inputs[k]->dims) {
      bad("input " + std::to_string(k) + " is not a constant of known shape");
    }
    return *inputs[k]->dims;
  };
  Inferred r;
  if (in(op, same_shape_ops)) {
    r.out = in0;
    r.macs = elements(in0) / batch(in0);
  } else if (in(op, elementwise_ops)) {
    std::vector<Dims> all = data;
    for (const Tensor* t : inputs) {
      if (t != nullptr && t->constant && t->dims) all.push_back(*t->dims);
    }
    r.out = broadcast(all);
    r.macs = elements(r.out) / batch(r.out);
  } else if (op == "Conv") {
    const Dims& w = const_dims(1);
    if (w.size() != 4) bad("a weight " + to_string(w) + " that is not of a 2-D convolution");
    const std::uint64_t group = positive(attr_int(node, "group", 1), "a group count of");
    if (in0.size() != 4 || in0[1] != w[1] * group) {
      bad("an input " + to_string(in0) + " for a weight " + to_string(w) + " in " +
          std::to_string(group) + " groups");
    }
    if (const auto k = attr_ints(node, "kernel_shape", {}); !k.empty()) {
      // Optional in ONNX, and then the weight's; given, it must be the weight's.
      if (k.size() != 2 || k[0] != static_cast<std::int64_t>(w[2]) ||
          k[1] != static_cast<std::int64_t>(w[3])) {
        std::string given;
        for (const std::int64_t d : k) given += (given.empty() ? "" : " x ") + std::to_string(d);
        bad("a kernel_shape of " + given + " that is not its weight's " + std::to_string(w[2]) +
            " x " + std::to_string(w[3]));
      }
    }
    r.out = window_out(node, in0, w[0], w[2], w[3]);
    r.macs = (elements(r.out) / batch(r.out)) * w[1] * w[2] * w[3];
  } else if (op == "MaxPool" || op == "AveragePool") {
    const auto k = attr_ints(node, "kernel_shape", {});
    if (k.size() != 2) bad("a kernel_shape that is not 2-D");
    const std::uint64_t kh = positive(k[0], "a kernel of");
    const std::uint64_t kw = positive(k[1], "a kernel of");
    if (in0.size() != 4) bad("its input " + to_string(in0) + " is not NCHW");
    r.out = window_out(node, in0, in0[1], kh, kw);
    r.macs = (elements(r.out) / batch(r.out)) * kh * kw;
  } else if (op == "GlobalAveragePool" || op == "GlobalMaxPool") {
    if (in0.size() != 4) bad("its input " + to_string(in0) + " is not NCHW");
    r.out = {in0[0], in0[1], 1, 1};
    r.macs = elements(in0) / batch(in0);
  } else if (op == "Gemm" || op == "MatMul") {
    const Dims& b = const_dims(1);
    if (b.size() != 2 || in0.empty())
      bad("a product of " + to_string(in0) + " and " + to_string(b));
    const bool trans_a = op == "Gemm" && attr_int(node, "transA", 0) != 0;
    const bool trans_b = op == "Gemm" && attr_int(node, "transB", 0) != 0;
    const std::uint64_t k = trans_b ? b[1] : b[0];
    const std::uint64_t m = trans_b ? b[0] : b[1];
    if (op == "Gemm") {
      if (in0.size() != 2) bad("Gemm of a rank-" + std::to_string(in0.size()) + " input");
      if ((trans_a ? in0[0] : in0[1]) != k)
        bad("a product of " + to_string(in0) + " and " + to_string(b));
      r.out = {trans_a ? in0[1] : in0[0], m};
    } else {
      if (in0.back() != k) bad("a product of " + to_string(in0) + " and " + to_string(b));
      r.out = in0;
      r.out.back() = m;
    }
    r.macs = (elements(r.out) / batch(r.out)) * k;
  } else if (op == "Flatten") {
    const std::size_t axis = axis_of(attr_int(node, "axis", 1), in0.size());
    const Dims head(in0.begin(), in0.begin() + static_cast<std::ptrdiff_t>(axis));
    const Dims tail(in0.begin() + static_cast<std::ptrdiff_t>(axis), in0.end());
    r.out = {elements(head), elements(tail)};
  } else if (op == "Reshape") {
    if (inputs.size() < 2 || inputs[1] == nullptr || !inputs[1]->values) {
      bad("its shape is not a constant list of integers");
    }
    r.out = reshaped(in0, *inputs[1]->values);
  } else if (op == "Concat") {
    const std::size_t axis = axis_of(attr_int(node, "axis", 1), in0.size());
    if (axis >= in0.size()) bad("axis " + std::to_string(axis));
    r.out = in0;
    for (std::size_t i = 1; i < data.size(); ++i) {
      Dims a = data[i];
      Dims b = in0;
      if (a.size() != b.size()) bad("Concat of " + to_string(in0) + " and " + to_string(data[i]));
      a[axis] = b[axis] = 0;
      if (a != b) bad("Concat of " + to_string(in0) + " and " + to_string(data[i]));
      r.out[axis] += data[i][axis];
    }
    elements(r.out);
  } else {
    bad("unknown");  // the caller checks the operator first
  }
  return r;
}

bool onnx_known(const std::string& op) {
  return in(op, same_shape_ops) || in(op, elementwise_ops) || in(op, other_ops);
}

std::string describe(const onnx::NodeProto& node) {
  const std::string name =
      node.name().empty() && node.output_size() > 0 ? node.output(0) : node.name();
  return "node " + quote(name) + " (" + quote(node.op_type()) + ")";
}

[[noreturn]] void fail(int index, const onnx::NodeProto& node, const std::string& problem,
                       const std::string& expected) {
  throw errors::InputError("/graph/node/" + std::to_string(index), describe(node) + ": " + problem,
                           expected);
}

}  // namespace

ImportedModel import_onnx_model(std::string_view bytes, const std::string& name) {
  onnx::ModelProto model;
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
      !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    throw errors::InputError("/", "the bytes do not parse as an ONNX ModelProto",
                             "an ONNX model (a protobuf file), or an MXNet symbol (JSON)");
  }
  if (!model.has_graph())
    throw errors::InputError("/graph", "no graph", "an ONNX model with a graph");
  const onnx::GraphProto& graph = model.graph();
  std::map<std::string, Tensor> tensors;
  for (int i = 0; i < graph.initializer_size(); ++i) {
    const onnx::TensorProto& t = graph.initializer(i);
    try {
      if (!tensors.emplace(t.name(), constant_of(t, t.name())).second) {
        throw errors::InputError("/graph/initializer/" + std::to_string(i),
                                 "a second initializer named " + quote(t.name()),
                                 "each tensor named once");
      }
    } catch (const std::invalid_argument& e) {
      throw errors::InputError("/graph/initializer/" + std::to_string(i),
                               quote(t.name()) + ": " + e.what(), "a tensor of real size");
    }
  }
  // ONNX names each tensor once (the graph is in single static assignment form): a second
  // writer of a name would make which one a reader meant ambiguous. An empty name is an optional
  // output left out.
  const auto define = [&tensors](int index, const onnx::NodeProto& node, const std::string& out,
                                 const Tensor& value) {
    if (out.empty()) return;
    if (!tensors.emplace(out, value).second) {
      fail(index, node,
           "output " + quote(out) +
               " is a name an initializer, a graph input or "
               "an earlier node already gave a tensor",
           "each tensor named once (ONNX graphs are in single static assignment form)");
    }
  };
  std::optional<std::string> first_input;  // the one graph input that is no initializer
  for (int i = 0; i < graph.input_size(); ++i) {
    const onnx::ValueInfoProto& v = graph.input(i);
    if (tensors.count(v.name()) != 0) continue;  // an initializer listed as an input
    // Refused where it is listed, whether a node reads it or not: a model's inputs are its
    // contract, and one of them the network would never be given is not this model.
    if (first_input) {
      throw errors::InputError("/graph/input/" + std::to_string(i),
                               "a second graph input " + quote(v.name()) +
                                   " that is no initializer, besides " + quote(*first_input),
                               "one data input (an ordo network takes one); parameters as "
                               "initializers");
    }
    first_input = v.name();
    Tensor data;
    Dims dims;
    for (const onnx::TensorShapeProto_Dimension& d : v.type().tensor_type().shape().dim()) {
      // A symbolic dimension (the batch, "N") counts as 1: costs are per example.
      const std::int64_t value = d.has_dim_value() ? d.dim_value() : 1;
      if (value < 1 || static_cast<std::uint64_t>(value) > dim_max) {
        throw errors::InputError("/graph/input/" + std::to_string(i),
                                 quote(v.name()) + ": a dimension of " + std::to_string(value),
                                 "1 to 2^31");
      }
      dims.push_back(static_cast<std::uint64_t>(value));
    }
    data.dims = dims;
    tensors[v.name()] = data;
  }
  const double us_per_mac = networks::us_per_mac();
  networks::Network net;
  net.name = name;
  std::set<std::string> used_roots;
  std::set<std::string> layer_names;
  std::optional<std::string> data_input;
  // Whether the trainer computes every node so far; what each layer outputs per example; the
  // initial values to look for.
  ImportedModel result;
  std::vector<Dims> outputs;
  std::vector<int> node_of_layer;
  std::vector<WantedValue> wanted;
  std::optional<int> softmax_at;  // a softmax layer, which must be the last
  const auto untrainable = [&](int i, const onnx::NodeProto& node, const std::string& why) {
    result.untrainable_at = "/graph/node/" + std::to_string(i);
    result.untrainable = describe(node) + ": " + why;
  };
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto& node = graph.node(i);
    std::vector<const Tensor*> inputs;
    bool all_constant = node.input_size() > 0;
    for (const std::string& input : node.input()) {
      if (input.empty()) {
        inputs.push_back(nullptr);  // an optional input left out
        continue;
      }
      const auto it = tensors.find(input);
      if (it == tensors.end()) {
        fail(i, node, "input " + quote(input) + " is made by no earlier node",
             "inputs from initializers, graph inputs or earlier nodes (ONNX orders nodes "
             "topologically)");
      }
      inputs.push_back(&it->second);
      all_constant = all_constant && it->second.constant;
    }
    const std::string& op = node.op_type();
    if (op == "Constant" || op == "ConstantOfShape" || all_constant) {
      Tensor c;
      c.constant = true;
      try {
        if (op == "Constant") {
          const onnx::AttributeProto* value = attribute(node, "value");
          if (value == nullptr || !value->has_t()) bad("no tensor value");
          c = constant_of(value->t(), node.output_size() > 0 ? node.output(0) : "");
        } else if (op == "ConstantOfShape") {
          if (inputs.empty() || inputs[0] == nullptr || !inputs[0]->values) {
            bad("its shape is not a constant list of integers");
          }
          Dims dims;
          for (const std::int64_t d : *inputs[0]->values)
            dims.push_back(non_negative(d, "a dimension of"));
          elements(dims);
          const onnx::AttributeProto* value = attribute(node, "value");
          c.is_float = value == nullptr ||
                       value->t().data_type() == onnx::TensorProto_DataType_FLOAT ||
                       value->t().data_type() == onnx::TensorProto_DataType_FLOAT16 ||
                       value->t().data_type() == onnx::TensorProto_DataType_DOUBLE;
          c.dims = dims;
          c.root = node.output_size() > 0 ? node.output(0) : "";
        } else {
          // Computed from constants alone (an Unsqueeze or Reshape of a weight): still that
          // weight, for the layer that reads it.
          for (const Tensor* t : inputs) {
            if (t != nullptr && t->is_float) {
              c.is_float = true;
              c.root = t->root;
              break;
            }
          }
          c.dims = folded_dims(node, inputs);
        }
      } catch (const std::invalid_argument& e) {
        fail(i, node, e.what(), "a constant of real size");
      }
      for (const std::string& out : node.output()) define(i, node, out, c);
      continue;
    }
    if (!onnx_known(op))
      fail(i, node, "an operator the importer does not know", "one of " + known_ops());
    networks::Layer layer;
    layer.name = node.name().empty() || layer_names.count(node.name()) != 0
                     ? (node.output_size() > 0 ? node.output(0) : "node" + std::to_string(i))
                     : node.name();
    if (const std::optional<std::string> problem = dag::name_problem(layer.name)) {
      fail(i, node, "its name " + *problem, dag::name_expectation());
    }
    if (!layer_names.insert(layer.name).second) fail(i, node, "a name used before", "unique names");
    std::vector<std::pair<std::size_t, std::string>> constants;  // float ones: input, root
    const Dims* in0 = nullptr;
    std::size_t data_inputs = 0;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      const Tensor* t = inputs[k];
      if (t == nullptr) continue;
      if (!t->constant) {
        if (in0 == nullptr && t->dims) in0 = &*t->dims;
        ++data_inputs;
        if (t->layer) {
          if (std::find(layer.inputs.begin(), layer.inputs.end(), *t->layer) ==
              layer.inputs.end()) {
            layer.inputs.push_back(*t->layer);
          }
        } else {
          const std::string& input = node.input(static_cast<int>(k));
          if (data_input && *data_input != input) {
            fail(i, node, "a second data input " + quote(input) + " besides " + quote(*data_input),
                 "one data input (an ordo network takes one)");
          }
          data_input = input;
        }
        continue;
      }
      if (!t->is_float) continue;  // shapes, axes: not trained
      constants.emplace_back(k, t->root);
      if (op == "BatchNormalization" && k >= 3) continue;  // running mean and variance: states
      if (!used_roots.insert(t->root).second) {
        fail(i, node, "parameter " + quote(t->root) + " is read by a second layer",
             "each parameter read by one layer (shared weights are not imported)");
      }
      const Tensor& root = tensors.at(t->root);
      if (!root.dims)
        fail(i, node, "parameter " + quote(t->root) + " has no known shape",
             "a constant of known shape");
      if (const std::optional<std::string> problem = dag::name_problem(t->root)) {
        fail(i, node, "parameter name " + quote(t->root) + ": " + *problem,
             dag::name_expectation());
      }
      layer.params.push_back(networks::Param{t->root, elements(*root.dims), dag::DType::f32});
    }
    Inferred shape;
    try {
      shape = infer(node, inputs);
    } catch (const std::invalid_argument& e) {
      fail(i, node, e.what(), "shapes and attributes the operator takes");
    }
    if (result.trainable() && softmax_at) {
      untrainable(*softmax_at, graph.node(*softmax_at),
                  "a softmax before the last layer; the trainer's loss is the only softmax");
    }
    if (result.trainable()) {
      try {
        layer.ops = train_ops(node, inputs, *in0, shape.out);
        const networks::OpKind first = layer.ops.front().kind;
        if ((first == networks::OpKind::add || first == networks::OpKind::concat) &&
            (layer.inputs.size() != data_inputs)) {
          bad("it reads the data or one layer twice; the trainer joins distinct layers");
        }
        if (op == "Softmax" || op == "LogSoftmax") softmax_at = i;
        for (const auto& [k, root] : constants) {
          const Dims& d = *inputs[k]->dims;
          WantedValue w{root, {}, false, {}, false};
          if (op == "Conv" && k == 1) {
            w.shape.assign(d.begin(), d.end());
          } else if (op == "Gemm" && k == 1) {
            w.transpose = attr_int(node, "transB", 0) == 0;
            w.shape = {static_cast<std::int64_t>(shape.out[1]),
                       static_cast<std::int64_t>(w.transpose ? d[0] : d[1])};
          } else {
            w.shape = {static_cast<std::int64_t>(elements(d))};
          }
          if (op == "BatchNormalization" && k >= 3) {
            w.layer = layer.name;
            w.variance = k == 4;
          }
          wanted.push_back(std::move(w));
        }
      } catch (const std::invalid_argument& e) {
        untrainable(i, node, e.what());
      }
    }
    outputs.emplace_back(shape.out.empty() ? shape.out.begin() : shape.out.begin() + 1,
                         shape.out.end());
    node_of_layer.push_back(i);
    layer.forward_us = us_per_mac * static_cast<double>(shape.macs);
    layer.backward_us = 2.0 * layer.forward_us;
    const auto index = static_cast<std::uint32_t>(net.layers.size());
    for (int o = 0; o < node.output_size(); ++o) {
      Tensor made;
      made.layer = index;
      if (o == 0) made.dims = shape.out;
      define(i, node, node.output(o), made);
    }
    net.layers.push_back(std::move(layer));
  }
  if (net.layers.empty())
    throw errors::InputError("/graph/node", "no operator computes on data", "at least one");
  if (networks::param_count(net) == 0) {
    throw errors::InputError("/graph", "no learnable parameters, so no gradient to reduce",
                             "a model with weights");
  }
  if (result.trainable() && data_input) {
    const Dims& dims = *tensors.at(*data_input).dims;
    if (dims.size() != 2 && dims.size() != 4) {
      result.untrainable_at = "/graph/input";
      result.untrainable = quote(*data_input) + " of shape " + to_string(dims) +
                           ": the trainer takes (N, features) or (N, channels, height, width)";
    } else {
      net.input.assign(dims.begin() + 1, dims.end());
    }
  }
  if (result.trainable()) {
    if (const std::optional<OpsProblem> problem = check_ops(net, outputs)) {
      if (problem->layer) {
        const int i = node_of_layer.at(*problem->layer);
        untrainable(i, graph.node(i), problem->problem);
      } else {
        result.untrainable_at = "/graph";
        result.untrainable = problem->problem;
      }
    }
  } else {
    clear_ops(net);
  }
  if (result.trainable()) {
    int at = 0;
    try {
      result.initial = graph_initial_values(graph, wanted, at);
    } catch (const std::invalid_argument& e) {
      result.untrainable_at = "/graph/initializer/" + std::to_string(at);
      result.untrainable = std::string("initial value ") + e.what();
      clear_ops(net);
    }
  }
  try {
    networks::check_network(net);
  } catch (const std::invalid_argument& e) {
    throw errors::InputError("/graph", e.what(), "a network ordo can build a step of");
  }
  result.network = std::move(net);
  return result;
}

networks::Network import_onnx(std::string_view bytes, const std::string& name) {
  return import_onnx_model(bytes, name).network;
}

}  // namespace ordo::import
