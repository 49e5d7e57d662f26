#include "runtime/import/mxnet_ops.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "runtime/import/window.hpp"

namespace ordo::import {
namespace {

// Far above any real layer, and low enough that products of a few of them cannot overflow.
constexpr std::uint64_t dim_max = std::uint64_t{1} << 31;
constexpr std::uint64_t elements_max = std::uint64_t{1} << 40;

constexpr std::array<std::string_view, 15> known = {
    "Convolution", "FullyConnected", "BatchNorm",    "Activation",    "relu",
    "Pooling",     "Flatten",        "elemwise_add", "_Plus",         "_plus",
    "add_n",       "Concat",         "Dropout",      "SoftmaxOutput", "softmax"};

[[noreturn]] void bad(const std::string& why) { throw std::invalid_argument(why); }

std::uint64_t mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > elements_max / a) bad("more than 2^40 elements");
  return a * b;
}

std::uint64_t parse_uint(std::string_view text, const std::string& key) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v > dim_max) {
    bad("attribute " + key + " = '" + std::string(text) + "'; expected a whole number up to 2^31");
  }
  return v;
}

std::string_view trim(std::string_view t) {
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  return t;
}

const std::string* attr(const MxNode& node, const std::string& key) {
  const auto it = node.attrs.find(key);
  return it == node.attrs.end() ? nullptr : &it->second;
}

std::uint64_t attr_uint(const MxNode& node, const std::string& key,
                        std::optional<std::uint64_t> fallback) {
  const std::string* v = attr(node, key);
  if (v == nullptr) {
    if (!fallback) bad("no attribute " + key);
    return *fallback;
  }
  return parse_uint(trim(*v), key);
}

// "(3, 3)", "[3,3]", "(3,)" or "3".
std::vector<std::uint64_t> attr_tuple(const MxNode& node, const std::string& key,
                                      std::vector<std::uint64_t> fallback) {
  const std::string* v = attr(node, key);
  if (v == nullptr) return fallback;
  std::string_view t = trim(*v);
  if (!t.empty() && (t.front() == '(' || t.front() == '[')) {
    if (t.size() < 2 || (t.back() != ')' && t.back() != ']')) {
      bad("attribute " + key + " = '" + *v + "'; expected a tuple such as (3, 3)");
    }
    t = t.substr(1, t.size() - 2);
  }
  std::vector<std::uint64_t> out;
  while (!trim(t).empty()) {
    const std::size_t comma = t.find(',');
    out.push_back(parse_uint(trim(t.substr(0, comma)), key));
    if (out.size() > 8) bad("attribute " + key + " has more than 8 entries");
    if (comma == std::string_view::npos) break;
    t.remove_prefix(comma + 1);
  }
  return out;
}

bool attr_bool(const MxNode& node, const std::string& key, bool fallback) {
  const std::string* v = attr(node, key);
  if (v == nullptr) return fallback;
  std::string t(trim(*v));
  std::transform(t.begin(), t.end(), t.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (t == "true" || t == "1") return true;
  if (t == "false" || t == "0") return false;
  bad("attribute " + key + " = '" + *v + "'; expected True or False");
}

std::string attr_string(const MxNode& node, const std::string& key, const std::string& fallback) {
  const std::string* v = attr(node, key);
  return v == nullptr ? fallback : std::string(trim(*v));
}

// A 2-D window attribute (kernel, stride, pad, dilate): two entries, or the fallback.
std::array<std::uint64_t, 2> window(const MxNode& node, const std::string& key,
                                    std::uint64_t fallback, bool required) {
  if (required && attr(node, key) == nullptr) bad("no attribute " + key);
  const std::vector<std::uint64_t> v = attr_tuple(node, key, {fallback, fallback});
  if (v.size() != 2) {
    bad("attribute " + key + " has " + std::to_string(v.size()) +
        " entries; expected 2 (2-D operators only)");
  }
  return {v[0], v[1]};
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

// One size for both axes of a window attribute, as the trainer's square windows have it.
std::uint32_t square(const std::array<std::uint64_t, 2>& v, const std::string& key) {
  if (v[0] != v[1]) {
    bad("the trainer's windows are square; " + key + " is (" + std::to_string(v[0]) + ", " +
        std::to_string(v[1]) + ")");
  }
  return static_cast<std::uint32_t>(v[0]);
}

// MXNet's batch norm defaults differ from the trainer's (eps 1e-5, momentum 0.9 in MXNet's
// convention): a model keeps its own only where they are the trainer's.
double attr_double(const MxNode& node, const std::string& key, double fallback) {
  const std::string* v = attr(node, key);
  if (v == nullptr) return fallback;
  try {
    return std::stod(std::string(trim(*v)));
  } catch (const std::exception&) {
    bad("attribute " + key + " = '" + *v + "'; expected a number");
  }
}

void same_float(const MxNode& node, const std::string& key, double fallback, double want) {
  const double value = attr_double(node, key, fallback);
  if (std::abs(value - want) > 1e-3 * want) {
    bad("BatchNorm " + key + " " + std::to_string(value) + "; the trainer's batch norm has " +
        std::to_string(want));
  }
}

std::vector<networks::LayerOp> convolution_ops(const MxNode& node) {
  if (attr_uint(node, "num_group", 1) != 1) bad("the trainer has no grouped convolution");
  if (window(node, "dilate", 1, false) != std::array<std::uint64_t, 2>{1, 1}) {
    bad("the trainer has no dilated convolution");
  }
  std::vector<networks::LayerOp> ops = {
      networks::op::conv(static_cast<std::uint32_t>(attr_uint(node, "num_filter", std::nullopt)),
                         square(window(node, "kernel", 1, true), "kernel"),
                         square(window(node, "stride", 1, false), "stride"),
                         square(window(node, "pad", 0, false), "pad"))};
  if (!attr_bool(node, "no_bias", false)) ops.push_back(networks::op::bias());
  return ops;
}

std::vector<networks::LayerOp> pooling_ops(const MxNode& node, const Shape& in) {
  const std::string type = attr_string(node, "pool_type", "max");
  if (attr_bool(node, "global_pool", false)) {
    if (type != "avg") bad("the trainer's global pooling averages; pool_type is " + type);
    return {networks::op::global_avg_pool()};
  }
  if (type == "sum") bad("the trainer has no sum pooling");
  const std::uint32_t kernel = square(window(node, "kernel", 1, true), "kernel");
  const std::uint32_t stride = square(window(node, "stride", 1, false), "stride");
  const std::uint32_t pad = square(window(node, "pad", 0, false), "pad");
  if (2u * pad > kernel) bad("padding above half the window, which the trainer's pooling refuses");
  // "full" rounds up; where that gives the size "valid" gives, the windows are the same ones.
  if (attr_string(node, "pooling_convention", "valid") == "full" &&
      slide(in[1], kernel, stride, pad, 1, true) != slide(in[1], kernel, stride, pad, 1, false)) {
    bad("pooling_convention full rounds this window's output up; the trainer's pooling rounds "
        "down");
  }
  if (type == "avg" && pad > 0 && !attr_bool(node, "count_include_pad", true)) {
    bad("average pooling that leaves the padding out of the divisor; the trainer's counts it");
  }
  return {type == "max" ? networks::op::max_pool(kernel, stride, pad)
                        : networks::op::avg_pool(kernel, stride, pad)};
}

}  // namespace

std::vector<networks::LayerOp> mx_layer_ops(const MxNode& node, std::span<const Shape> data,
                                            bool last) {
  const std::string& op = node.op;
  if (op == "Convolution") return convolution_ops(node);
  if (op == "FullyConnected") {
    if (!attr_bool(node, "flatten", true) && data[0].size() > 1) {
      bad("the trainer's dense layer flattens its input; flatten is False");
    }
    if (attr_bool(node, "no_bias", false)) bad("the trainer's dense layer has a bias; no_bias");
    return {networks::op::dense(static_cast<std::uint32_t>(attr_uint(node, "num_hidden", 1)))};
  }
  if (op == "BatchNorm") {
    if (attr_bool(node, "fix_gamma", true)) {
      bad("fix_gamma keeps gamma at 1 (MXNet's default); the trainer's batch norm learns it");
    }
    if (attr_bool(node, "use_global_stats", false)) {
      bad("the trainer's batch norm normalises by the batch; use_global_stats");
    }
    same_float(node, "eps", 1e-3, 1e-5);
    same_float(node, "momentum", 0.9, 0.9);
    return {networks::op::batch_norm()};
  }
  if (op == "Activation" || op == "relu") {
    if (op == "Activation" && attr_string(node, "act_type", "") != "relu") {
      bad("the trainer's only activation is relu; act_type is " +
          attr_string(node, "act_type", ""));
    }
    return {networks::op::relu()};
  }
  if (op == "Pooling") return pooling_ops(node, data[0]);
  if (op == "Flatten") return {networks::op::flatten()};
  if (op == "elemwise_add" || op == "_Plus" || op == "_plus" || op == "add_n") {
    return {networks::op::add()};
  }
  if (op == "Concat") {
    if (attr_uint(node, "dim", 1) != 1 || data[0].size() != 3) {
      bad("the trainer joins images along their channels only");
    }
    return {networks::op::concat()};
  }
  if (op == "Dropout") {
    if (attr_double(node, "p", 0.5) != 0.0) {
      bad("the trainer has no dropout; p is " + attr_string(node, "p", "0.5"));
    }
    return {networks::op::identity()};
  }
  if (op == "SoftmaxOutput" || op == "softmax") {
    if (!last) bad("a softmax before the last layer; the trainer's loss is the only softmax");
    return {networks::op::identity()};
  }
  bad("the trainer has no " + op);
}

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
  for (const std::string_view op : known) {
    if (!out.empty()) out += ", ";
    out += op;
  }
  return out;
}

bool mx_known(const std::string& op) {
  return std::find(known.begin(), known.end(), op) != known.end();
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
