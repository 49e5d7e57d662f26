// An ONNX initializer's numbers as the trainer's float32 values: what `ordo train --model` starts
// from where the file holds weights (the ONNX zoo's "light" models hold only their shapes).
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
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

}  // namespace ordo::import
