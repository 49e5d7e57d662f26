#include "runtime/import/mxnet_train_ops.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "runtime/import/mxnet_attrs.hpp"
#include "runtime/import/refusal.hpp"
#include "runtime/import/window.hpp"

namespace ordo::import {
namespace {

using mx_detail::attr_bool;
using mx_detail::attr_double;
using mx_detail::attr_string;
using mx_detail::attr_uint;
using mx_detail::window;

// One size for both axes of a window attribute, as the trainer's square windows have it.
std::uint32_t square(const std::array<std::uint64_t, 2>& v, const std::string& key) {
  if (v[0] != v[1]) {
    bad("the trainer's windows are square; " + key + " is (" + std::to_string(v[0]) + ", " +
        std::to_string(v[1]) + ")");
  }
  return static_cast<std::uint32_t>(v[0]);
}

// The trainer's batch norm has eps 1e-5 and momentum 0.9 (in MXNet's convention); a model with
// others (MXNet's default eps is 1e-3) is refused rather than trained with other numbers.
void same_float(const MxNode& node, const std::string& key, double fallback, double want) {
  const double value = attr_double(node, key, fallback);
  if (!(std::abs(value - want) <= 1e-3 * want)) {  // NaN included
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
      window_output(in[1], kernel, stride, pad, pad, 1, true) !=
          window_output(in[1], kernel, stride, pad, pad, 1, false)) {
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

}  // namespace ordo::import
