// What the ONNX importer's parts share about a graph's nodes: what a tensor name stands for at a
// point of the graph, and a node's attributes.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/import/mxnet_ops.hpp"

namespace ordo::import::onnx_detail {

using Dims = Shape;  // with the batch dimension, as ONNX writes them

struct Tensor {
  bool constant = false;
  bool is_float = false;
  std::optional<Dims> dims;
  std::optional<std::vector<std::int64_t>> values;  // small int64 constants
  std::string root;                                 // a float constant: the parameter it is
  std::optional<std::uint32_t> layer;               // made by this layer
};

inline const onnx::AttributeProto* attribute(const onnx::NodeProto& node, const std::string& name) {
  for (const onnx::AttributeProto& a : node.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

inline std::int64_t attr_int(const onnx::NodeProto& node, const std::string& name,
                             std::int64_t fallback) {
  const onnx::AttributeProto* a = attribute(node, name);
  return a == nullptr ? fallback : a->i();
}

inline float attr_float(const onnx::NodeProto& node, const std::string& name, float fallback) {
  const onnx::AttributeProto* a = attribute(node, name);
  return a == nullptr ? fallback : a->f();
}

inline std::vector<std::int64_t> attr_ints(const onnx::NodeProto& node, const std::string& name,
                                           std::vector<std::int64_t> fallback) {
  const onnx::AttributeProto* a = attribute(node, name);
  if (a == nullptr) return fallback;
  return {a->ints().begin(), a->ints().end()};
}

// An axis attribute, negative ones counted from the end; throws std::invalid_argument beyond.
inline std::size_t axis_of(std::int64_t axis, std::size_t rank) {
  const std::int64_t r = static_cast<std::int64_t>(rank);
  if (axis < -r || axis >= r + 1) {
    throw std::invalid_argument("axis " + std::to_string(axis) + " of a rank-" +
                                std::to_string(rank) + " tensor");
  }
  return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

}  // namespace ordo::import::onnx_detail
