// An ONNX model's initializers as the trainer's float32 initial values: what `ordo train --model`
// starts from where the file holds weights (the ONNX zoo's "light" models hold mostly shapes).
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/networks/initial_values.hpp"

namespace ordo::import {

// The tensor's values in its own shape: float32 or float64, from its typed fields or its raw
// bytes (little-endian, as ONNX stores them); no values where it holds none (a tensor that only
// declares its shape). Throws std::invalid_argument for another type, external data, or a count
// of values that is not its shape's.
networks::InitialTensor initializer_values(const onnx::TensorProto& tensor);

// A [rows, columns] tensor as [columns, rows] (a Gemm weight stored as inputs x outputs).
networks::InitialTensor transposed(const networks::InitialTensor& matrix);

// A parameter or running statistic whose initial value the file may hold: the constant it is
// (an initializer, where it is one) and its shape in the trainer's layer.
struct WantedValue {
  std::string root;
  std::vector<std::int64_t> shape;
  bool transpose = false;  // a Gemm weight stored as inputs x outputs
  std::string layer;       // for a running statistic: its layer, else empty
  bool variance = false;
};

// The initial values of those `wanted` that are initializers with values (a ConstantOfShape's
// output, or an initializer that only declares its shape, has none: the trainer draws it).
// Throws std::invalid_argument for values the trainer cannot take, with `at` the initializer's
// index.
networks::InitialValues graph_initial_values(const onnx::GraphProto& graph,
                                             const std::vector<WantedValue>& wanted, int& at);

}  // namespace ordo::import
