// An ONNX model as ordo's network description (docs/import.md): one layer per operator node that
// computes on the data, in the graph's order (ONNX requires a topological one); every float
// tensor the graph holds as a constant (an initializer, a Constant node's value, the output of a
// ConstantOfShape, or what nodes make of constants alone, such as an Unsqueeze of one) is a
// parameter of the layer that reads it, since ONNX trains every initializer; a batch norm's mean
// and variance are states, not keys. Shapes come from the data input's declared shape and each
// operator's rule; costs from each layer's multiply-adds.
#pragma once

#include <string>
#include <string_view>

#include "runtime/errors/input_error.hpp"
#include "runtime/import/imported_model.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::import {

// Throws errors::InputError naming the node, its operator and what is wrong: bytes that are not an
// ONNX model, an operator not known here (never skipped), an input no earlier node makes, a
// constant shared by two layers, attributes or shapes an operator cannot take, more than one
// data input, sizes above the bounds (a dimension above 2^31, a tensor above 2^40 elements), or
// a model without parameters.
networks::Network import_onnx(std::string_view bytes, const std::string& name);
// The same, with each layer's ops and the input shape where the trainer computes every operator
// as ONNX does (docs/import.md), else why not; and the initializers' values of the parameters
// and batch norms' running statistics, in the trainer's layouts.
ImportedModel import_onnx_model(std::string_view bytes, const std::string& name);

}  // namespace ordo::import
