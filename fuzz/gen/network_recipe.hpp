// Random layered networks for the KVStore designs: chains, branches that all read the input,
// joins and skip connections, with random key counts, sizes, dtypes and costs. A recipe holds
// plain numbers that shrink towards zero, and every recipe maps to a valid network (an input
// pick names an earlier layer modulo the layer's index), so shrinking never leaves the valid
// space and ends at one layer with one small key.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <vector>

#include "runtime/networks/network.hpp"

namespace ordo::fuzz {

struct ParamRecipe {
  std::uint64_t count = 1;  // elements, from 1
  std::uint32_t dtype = 0;  // index into the dtypes a gradient may have
};

struct LayerRecipe {
  std::vector<ParamRecipe> params;
  // Each pick names an earlier layer (pick modulo the layer's index); none means the network
  // input. Two picks make a join; a pick that skips the previous layer is a skip connection.
  std::vector<std::uint32_t> inputs;
  std::uint32_t forward_us = 0;
  std::uint32_t backward_us = 0;
};

struct NetworkRecipe {
  std::vector<LayerRecipe> layers;
};

rc::Gen<NetworkRecipe> network_recipes();

// Parameters past bounds::keys_max are left out; `count_delta` is added to the first key's
// count (a rank whose model disagrees with the others').
networks::Network to_network(const NetworkRecipe& recipe, std::uint64_t count_delta = 0);

}  // namespace ordo::fuzz
