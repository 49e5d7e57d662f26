#include "runtime/import/onnx_train_ops.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "runtime/import/refusal.hpp"
#include "runtime/import/window.hpp"

namespace ordo::import::onnx_detail {
namespace {

// ONNX's batch norm attributes where they are the trainer's, within rounding.
void near(const onnx::NodeProto& node, const std::string& name, float fallback, float want) {
  const float v = attr_float(node, name, fallback);
  if (!(std::abs(v - want) <= 1e-3f * want)) {  // NaN included
    bad(name + " " + std::to_string(v) + "; the trainer's has " + std::to_string(want));
  }
}

// The square window of a Conv or pooling that the trainer's ops take (kernel, stride, padding),
// on an input of height and width `in` (window_out has accepted the attributes).
networks::LayerOp square_window(const onnx::NodeProto& node, const Dims& in, std::uint64_t kh,
                                std::uint64_t kw, networks::OpKind kind, std::uint32_t units) {
  if (kh != kw) bad("the trainer's windows are square; the kernel is " + to_string({kh, kw}));
  const auto strides = attr_ints(node, "strides", {1, 1});
  if (strides[0] != strides[1]) bad("the trainer's strides are equal; they are different here");
  for (const std::int64_t d : attr_ints(node, "dilations", {1, 1})) {
    if (d != 1) bad("the trainer has no dilated windows");
  }
  const onnx::AttributeProto* auto_pad = attribute(node, "auto_pad");
  const std::string mode = auto_pad == nullptr ? "NOTSET" : auto_pad->s();
  if (mode != "NOTSET" && mode != "VALID") bad("the trainer's padding is given; auto_pad " + mode);
  const auto pads = mode == "VALID" ? std::vector<std::int64_t>{0, 0, 0, 0}
                                    : attr_ints(node, "pads", {0, 0, 0, 0});
  if (pads[1] != pads[0] || pads[2] != pads[0] || pads[3] != pads[0]) {
    bad("the trainer pads every side alike; pads differ here");
  }
  const auto k = static_cast<std::uint32_t>(kh);
  const auto stride = static_cast<std::uint32_t>(strides[0]);
  const auto pad = static_cast<std::uint32_t>(pads[0]);
  if (attr_int(node, "ceil_mode", 0) != 0) {
    // Where rounding up gives the size rounding down gives, the windows are the same ones.
    for (std::size_t a = 2; a < 4; ++a) {
      if (window_output(in[a], k, stride, pad, pad, 1, true) !=
          window_output(in[a], k, stride, pad, pad, 1, false)) {
        bad("ceil_mode rounds this window's output up; the trainer's rounds down");
      }
    }
  }
  return {kind, units, k, stride, pad};
}

}  // namespace

std::vector<networks::LayerOp> train_ops(const onnx::NodeProto& node,
                                         const std::vector<const Tensor*>& inputs, const Dims& in0,
                                         const Dims& out) {
  const std::string& op = node.op_type();
  const auto given = [&](std::size_t k) { return k < inputs.size() && inputs[k] != nullptr; };
  if (op == "Conv") {
    const Dims& w = *inputs[1]->dims;
    if (attr_int(node, "group", 1) != 1) bad("the trainer has no grouped convolution");
    std::vector<networks::LayerOp> ops = {square_window(
        node, in0, w[2], w[3], networks::OpKind::conv, static_cast<std::uint32_t>(w[0]))};
    if (given(2)) ops.push_back(networks::op::bias());
    return ops;
  }
  if (op == "MaxPool" || op == "AveragePool") {
    const auto k = attr_ints(node, "kernel_shape", {});
    const bool max = op == "MaxPool";
    if (max && node.output_size() > 1 && !node.output(1).empty()) {
      bad("the trainer's max pooling gives no indices");
    }
    const networks::LayerOp window =
        square_window(node, in0, static_cast<std::uint64_t>(k[0]), static_cast<std::uint64_t>(k[1]),
                      max ? networks::OpKind::max_pool : networks::OpKind::avg_pool, 0);
    if (2u * window.padding > window.kernel) {
      bad("padding above half the window, which the trainer's pooling refuses");
    }
    if (!max && window.padding > 0 && attr_int(node, "count_include_pad", 0) == 0) {
      bad("average pooling that leaves the padding out of the divisor; the trainer's counts it");
    }
    return {window};
  }
  if (op == "GlobalAveragePool") return {networks::op::global_avg_pool()};
  if (op == "BatchNormalization") {
    if (attr_int(node, "spatial", 1) != 1) bad("the trainer's batch norm is per channel");
    if (!given(3) || !given(4)) bad("no running mean or variance");
    near(node, "epsilon", 1e-5f, 1e-5f);
    near(node, "momentum", 0.9f, 0.9f);
    return {networks::op::batch_norm()};
  }
  if (op == "Relu") return {networks::op::relu()};
  if (op == "Gemm") {
    if (attr_int(node, "transA", 0) != 0) bad("the trainer's dense layer takes its input as is");
    if (attr_float(node, "alpha", 1.0f) != 1.0f || attr_float(node, "beta", 1.0f) != 1.0f) {
      bad("the trainer's dense layer has no alpha or beta");
    }
    if (!given(2) || !inputs[2]->constant || !inputs[2]->dims ||
        elements(*inputs[2]->dims) != out[1]) {
      bad("the trainer's dense layer has a bias of one value per output");
    }
    return {networks::op::dense(static_cast<std::uint32_t>(out[1]))};
  }
  if (op == "Flatten") {
    if (attr_int(node, "axis", 1) != 1) bad("the trainer flattens each example whole");
    return {networks::op::flatten()};
  }
  if (op == "Reshape") {
    if (out.size() != 2 || out[0] != in0[0]) bad("the trainer's only reshape is a flatten");
    return {networks::op::flatten()};
  }
  if (op == "Add" || op == "Sum") {
    if (inputs.size() < 2) bad("the trainer adds two or more layers");
    for (const Tensor* t : inputs) {
      if (t == nullptr || t->constant || t->dims != in0) {
        bad("the trainer adds layers of one shape, no constants");
      }
    }
    return {networks::op::add()};
  }
  if (op == "Concat") {
    if (in0.size() != 4 || axis_of(attr_int(node, "axis", 1), 4) != 1) {
      bad("the trainer joins images along their channels only");
    }
    return {networks::op::concat()};
  }
  // ONNX's Dropout is the identity unless its training_mode input says otherwise.
  if (op == "Dropout") {
    if (given(2)) bad("the trainer has no dropout (a training_mode input)");
    return {networks::op::identity()};
  }
  if (op == "Identity") return {networks::op::identity()};
  if (op == "Softmax" || op == "LogSoftmax") return {networks::op::identity()};
  bad("the trainer has no " + op);
}

}  // namespace ordo::import::onnx_detail
