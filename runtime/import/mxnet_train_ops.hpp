// What the trainer computes for an MXNet node (docs/import.md, "Training an imported model"):
// the chain of the trainer's ops for each operator it computes exactly as MXNet does.
#pragma once

#include <span>
#include <vector>

#include "runtime/import/mxnet_ops.hpp"
#include "runtime/import/mxnet_symbol.hpp"
#include "runtime/networks/layer_ops.hpp"

namespace ordo::import {

// The node's ops, given its data inputs' shapes (mx_infer has accepted them); `last`: the
// network's last operator, whose softmax is the trainer's loss. Throws std::invalid_argument
// saying what the trainer lacks, for an operator or attributes it cannot compute exactly as
// MXNet does.
std::vector<networks::LayerOp> mx_layer_ops(const MxNode& node, std::span<const Shape> data,
                                            bool last);

}  // namespace ordo::import
