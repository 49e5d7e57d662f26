// The last check before an imported network is called trainable: the ops the importer chose
// must give, through the trainer's own shape rules (networks/shapes.hpp), every layer's output
// shape as the model's framework infers it, and the parameters the model has. A mismatch would
// mean training another network than the file's, so it makes the model untrainable instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/networks/network.hpp"

namespace ordo::import {

struct OpsProblem {
  std::optional<std::size_t> layer;  // the layer it is found at, where one is
  std::string problem;
};

// `outputs` holds each layer's output shape per example as the importer inferred it. An op's
// size above the description format's 2^24 is a problem too. On a problem the network's ops and
// input are cleared (it still imports, for the checker).
std::optional<OpsProblem> check_ops(networks::Network& network,
                                    const std::vector<std::vector<std::uint64_t>>& outputs);

// Every layer's ops and the input shape cleared.
void clear_ops(networks::Network& network);

}  // namespace ordo::import
