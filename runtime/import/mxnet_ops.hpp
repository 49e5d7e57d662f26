// What each MXNet operator the importer knows does to shapes, as MXNet's own shape inference
// does it: which of its inputs are data, learnable parameters, auxiliary states or labels, the
// shape of its output and of its parameters given its data inputs' shapes, and its multiply-adds
// (the cost estimate). Shapes are one example's, without the batch dimension.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/import/mxnet_symbol.hpp"

namespace ordo::import {

using Shape = std::vector<std::uint64_t>;

enum class InputRole : std::uint8_t { data, param, aux, label };

struct OpShapes {
  Shape output;
  std::vector<Shape> params;  // one per input of role param, in input order
  std::uint64_t macs = 0;
};

// The operators known here, for messages.
std::string mx_known_ops();
bool mx_known(const std::string& op);

// The role of each of the node's inputs (as many as it has). Requires mx_known(node.op).
std::vector<InputRole> mx_input_roles(const MxNode& node);

// Throws std::invalid_argument (the node's place is the caller's to add) for attributes MXNet
// would refuse or that are out of bounds, and for data shapes the operator cannot take.
OpShapes mx_infer(const MxNode& node, std::span<const Shape> data);

// Elements of a shape; throws std::invalid_argument above 2^40.
std::uint64_t elements(const Shape& shape);
std::string to_string(const Shape& shape);

}  // namespace ordo::import
