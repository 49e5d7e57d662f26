// An MXNet symbol as ordo's network description (docs/import.md): one layer per operator node,
// in the symbol's order, reading the layers its data inputs come from; each learnable parameter
// (weight, bias, gamma, beta) a parameter of the layer that uses it, in the order MXNet lists
// them as arguments, which is the order of its KVStore keys; auxiliary states (BatchNorm's moving
// mean and variance) and labels are no keys, since no gradient is pushed for them. Shapes are
// inferred from the data shape as MXNet infers them; costs from each layer's multiply-adds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/errors/input_error.hpp"
#include "runtime/import/imported_model.hpp"
#include "runtime/import/mxnet_symbol.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::import {

struct MxImportOptions {
  std::string name;                       // the network's name
  std::vector<std::uint64_t> data_shape;  // one example's, e.g. {3, 224, 224}
};

// Throws errors::InputError at "/nodes/K" naming the node, its operator and what is wrong: an
// operator not known here (never skipped), attributes or shapes it cannot take, a variable used
// both as data and as a parameter or by two operators, more than one data input, or a network
// without parameters. The result satisfies networks::check_network.
networks::Network import_mxnet(const MxSymbol& symbol, const MxImportOptions& options);
// The same, with each layer's ops and the input shape where the trainer computes every operator
// as MXNet does (docs/import.md), else why not. A symbol holds no weights.
ImportedModel import_mxnet_model(const MxSymbol& symbol, const MxImportOptions& options);

}  // namespace ordo::import
