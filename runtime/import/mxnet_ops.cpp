#include "runtime/import/mxnet_ops.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string_view>

#include "runtime/import/mxnet_attrs.hpp"
#include "runtime/import/refusal.hpp"
#include "runtime/import/window.hpp"

namespace ordo::import {
namespace {

// Far above any real layer, and low enough that products of a few of them cannot overflow.
constexpr std::uint64_t elements_max = std::uint64_t{1} << 40;

constexpr std::array<std::string_view, 15> mx_ops = {
    "Convolution", "FullyConnected", "BatchNorm",    "Activation",    "relu",
    "Pooling",     "Flatten",        "elemwise_add", "_Plus",         "_plus",
    "add_n",       "Concat",         "Dropout",      "SoftmaxOutput", "softmax"};

using mx_detail::attr_bool;
using mx_detail::attr_string;
using mx_detail::attr_uint;
using mx_detail::window;

std::uint64_t mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > elements_max / a) bad("more than 2^40 elements");
  return a * b;
}

const Shape& image(std::span<const Shape> data, const std::string& op) {
  if (data.empty()) bad(op + " has no data input");
  if (data[0].size() != 3) {
    bad(op + " takes an image (channels, height, width); its input is " + to_string(data[0]));
  }
  return data[0];
}

// One axis of a 2-D window with MXNet's symmetric padding; `ceil` for its "full" convention.
std::uint64_t slide(std::uint64_t size, std::uint64_t kernel, std::uint64_t stride,
                    std::uint64_t pad, std::uint64_t dilate, bool ceil) {
  return window_output(size, kernel, stride, pad, pad, dilate, ceil);
}

OpShapes convolution(const MxNode& node, std::span<const Shape> data) {
  const Shape& in = image(data, "Convolution");
  const auto kernel = window(node, "kernel", 1, true);
  const auto stride = window(node, "stride", 1, false);
  const auto pad = window(node, "pad", 0, false);
  const auto dilate = window(node, "dilate", 1, false);
  const std::uint64_t filters = attr_uint(node, "num_filter", std::nullopt);
  const std::uint64_t groups = attr_uint(node, "num_group", 1);
  if (filters == 0 || groups == 0 || in[0] % groups != 0 || filters % groups != 0) {
    bad("Convolution: " + std::to_string(in[0]) + " channels and " + std::to_string(filters) +
        " filters do not divide into " + std::to_string(groups) + " groups");
  }
  OpShapes s;
  s.output = {filters, slide(in[1], kernel[0], stride[0], pad[0], dilate[0], false),
              slide(in[2], kernel[1], stride[1], pad[1], dilate[1], false)};
  s.params.push_back({filters, in[0] / groups, kernel[0], kernel[1]});
  if (!attr_bool(node, "no_bias", false)) s.params.push_back({filters});
  s.macs = mul(mul(elements(s.output), in[0] / groups), mul(kernel[0], kernel[1]));
  return s;
}

OpShapes fully_connected(const MxNode& node, std::span<const Shape> data) {
  if (data.empty()) bad("FullyConnected has no data input");
  const std::uint64_t hidden = attr_uint(node, "num_hidden", std::nullopt);
  if (hidden == 0) bad("FullyConnected: num_hidden 0");
  OpShapes s;
  std::uint64_t inputs = 0;
  if (attr_bool(node, "flatten", true) || data[0].size() <= 1) {
    inputs = elements(data[0]);
    s.output = {hidden};
  } else {
    inputs = data[0].back();
    s.output = data[0];
    s.output.back() = hidden;
  }
  s.params.push_back({hidden, inputs});
  if (!attr_bool(node, "no_bias", false)) s.params.push_back({hidden});
  s.macs = mul(elements(s.output), inputs);
  return s;
}

OpShapes batch_norm(const MxNode& node, std::span<const Shape> data) {
  if (data.empty()) bad("BatchNorm has no data input");
  if (attr_uint(node, "axis", 1) != 1) bad("BatchNorm over an axis other than 1 (channels)");
  if (data[0].empty()) bad("BatchNorm of a scalar");
  const std::uint64_t channels = data[0][0];
  OpShapes s;
  s.output = data[0];
  s.params = {{channels}, {channels}};
  s.macs = elements(data[0]);
  return s;
}

OpShapes pooling(const MxNode& node, std::span<const Shape> data) {
  const Shape& in = image(data, "Pooling");
  const std::string type = attr_string(node, "pool_type", "max");
  if (type != "max" && type != "avg" && type != "sum") {
    bad("Pooling: pool_type '" + type + "'; expected max, avg or sum");
  }
  OpShapes s;
  if (attr_bool(node, "global_pool", false)) {
    s.output = {in[0], 1, 1};
    s.macs = elements(in);
    return s;
  }
  const auto kernel = window(node, "kernel", 1, true);
  const auto stride = window(node, "stride", 1, false);
  const auto pad = window(node, "pad", 0, false);
  const std::string convention = attr_string(node, "pooling_convention", "valid");
  if (convention != "valid" && convention != "full") {
    bad("Pooling: pooling_convention '" + convention + "'; expected valid or full");
  }
  const bool full = convention == "full";
  s.output = {in[0], slide(in[1], kernel[0], stride[0], pad[0], 1, full),
              slide(in[2], kernel[1], stride[1], pad[1], 1, full)};
  s.macs = mul(elements(s.output), mul(kernel[0], kernel[1]));
  return s;
}

OpShapes concat(const MxNode& node, std::span<const Shape> data) {
  if (data.empty()) bad("Concat has no inputs");
  const std::uint64_t dim = attr_uint(node, "dim", 1);
  if (dim == 0 || dim > data[0].size()) {
    bad("Concat along dim " + std::to_string(dim) + " of inputs " + to_string(data[0]));
  }
  const std::size_t axis = dim - 1;  // shapes here have no batch dimension
  OpShapes s;
  s.output = data[0];
  for (std::size_t i = 1; i < data.size(); ++i) {
    Shape a = data[i];
    Shape b = data[0];
    if (a.size() != b.size()) bad("Concat of " + to_string(data[0]) + " and " + to_string(data[i]));
    a[axis] = b[axis] = 0;
    if (a != b) bad("Concat of " + to_string(data[0]) + " and " + to_string(data[i]));
    s.output[axis] += data[i][axis];
  }
  elements(s.output);
  s.macs = 0;
  return s;
}

OpShapes same_shapes(std::span<const Shape> data, const std::string& op) {
  if (data.empty()) bad(op + " has no inputs");
  for (const Shape& d : data) {
    if (d != data[0]) bad(op + " of " + to_string(data[0]) + " and " + to_string(d));
  }
  OpShapes s;
  s.output = data[0];
  s.macs = mul(elements(data[0]), data.size());
  return s;
}

}  // namespace

std::uint64_t elements(const Shape& shape) {
  std::uint64_t n = 1;
  for (const std::uint64_t d : shape) n = mul(n, d);
  return n;
}

std::string to_string(const Shape& shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + ")";
}

std::string mx_known_ops() {
  std::string out;
  for (const std::string_view op : mx_ops) {
    if (!out.empty()) out += ", ";
    out += op;
  }
  return out;
}

bool mx_known(const std::string& op) {
  return std::find(mx_ops.begin(), mx_ops.end(), op) != mx_ops.end();
}

std::vector<InputRole> mx_input_roles(const MxNode& node) {
  std::vector<InputRole> roles(node.inputs.size(), InputRole::data);
  const auto set = [&](std::size_t at, InputRole role) {
    if (at < roles.size()) roles[at] = role;
  };
  if (node.op == "Convolution" || node.op == "FullyConnected") {
    set(1, InputRole::param);
    if (!attr_bool(node, "no_bias", false)) set(2, InputRole::param);
  } else if (node.op == "BatchNorm") {
    set(1, InputRole::param);
    set(2, InputRole::param);
    set(3, InputRole::aux);
    set(4, InputRole::aux);
  } else if (node.op == "SoftmaxOutput") {
    set(1, InputRole::label);
  }
  return roles;
}

OpShapes mx_infer(const MxNode& node, std::span<const Shape> data) {
  const std::string& op = node.op;
  if (op == "Convolution") return convolution(node, data);
  if (op == "FullyConnected") return fully_connected(node, data);
  if (op == "BatchNorm") return batch_norm(node, data);
  if (op == "Pooling") return pooling(node, data);
  if (op == "Concat") return concat(node, data);
  if (op == "Flatten") {
    if (data.size() != 1) bad("Flatten takes one input");
    OpShapes s;
    s.output = {elements(data[0])};
    return s;
  }
  if (op == "elemwise_add" || op == "_Plus" || op == "_plus" || op == "add_n") {
    return same_shapes(data, op);
  }
  // Activation, relu, Dropout, SoftmaxOutput, softmax: one data input, its shape.
  if (data.size() != 1) bad(op + " takes one data input, not " + std::to_string(data.size()));
  if (op == "Activation") {
    const std::string type = attr_string(node, "act_type", "");
    if (type != "relu" && type != "sigmoid" && type != "tanh" && type != "softrelu" &&
        type != "softsign") {
      bad("Activation: act_type '" + type +
          "'; expected relu, sigmoid, tanh, softrelu or softsign");
    }
  }
  OpShapes s;
  s.output = data[0];
  s.macs = elements(data[0]);
  return s;
}

}  // namespace ordo::import
