// What the trainer computes for an ONNX node (docs/import.md, "Training an imported model"):
// the chain of the trainer's ops for each operator it computes exactly as ONNX defines it.
#pragma once

#include <onnx/onnx_pb.h>

#include <vector>

#include "runtime/import/onnx_nodes.hpp"
#include "runtime/networks/layer_ops.hpp"

namespace ordo::import::onnx_detail {

// The ops for a node that computes on data (the shape inference has accepted it), given its
// inputs (null where left out), its first data input's dims and its output's. A softmax is the
// identity: the caller holds it to the last layer, where it is the trainer's loss. Throws
// std::invalid_argument saying what the trainer lacks.
std::vector<networks::LayerOp> train_ops(const onnx::NodeProto& node,
                                         const std::vector<const Tensor*>& inputs, const Dims& in0,
                                         const Dims& out);

}  // namespace ordo::import::onnx_detail
