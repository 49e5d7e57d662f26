// Initial parameters, drawn from one seed so that every rank could draw the same (the trainer
// still broadcasts rank 0's, as MXNet's KVStore init does): weights of dense and convolution
// layers He-normal (std sqrt(2 / fan_in), for ReLU networks), biases and betas zero, gammas one.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/train/layers/layer.hpp"

namespace ordo::train {

// Draws every layer's parameters in order from `seed` by their roles: a weight of two or more
// dimensions He-normal, a scale one, anything else zero.
void init_params(const std::vector<Layer*>& layers, std::uint64_t seed);

}  // namespace ordo::train
