// The built-in networks by name, as every tool and the trainer take them: one function, so that
// `ordo step-dag --network N` and `ordo train --network N` mean one network.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/networks/network.hpp"

namespace ordo::networks {

// "mlp" (`mlp_layers` dense layers of 256), "lenet", "resnet20", "resnet32", "resnet44",
// "resnet56", "resnet110" (CIFAR ResNets), "resnet50" and "inception-bn"; nullopt for another
// name. `input` replaces the network's own input shape where the network allows it (the CIFAR
// ResNets, resnet50 and inception-bn take any image they fit; lenet only its own 1x28x28); empty
// keeps the default: 1x28x28 for lenet, 3x32x32 for the CIFAR ResNets, 3x224x224 for resnet50
// and inception-bn. mlp without `input` is the checker's chain of 256-wide layers on 256
// features, with `input` a classifier of it (mlp_classifier). `classes` 0 is the network's own:
// 1000 for resnet50 and inception-bn, 10 for the others. Costs are a fixed time per
// multiply-add, the one that makes ResNet-50's forward pass 30 ms (the step builder's and
// simulators' estimate; the trainer measures real time), except the chain mlp's 100 us a layer.
std::optional<Network> builtin_network(const std::string& name, std::uint32_t mlp_layers = 4,
                                       std::vector<std::uint32_t> input = {},
                                       std::uint32_t classes = 0);

// The names builtin_network knows, for help texts.
std::string builtin_network_names();

// Microseconds per multiply-add: the rate that makes ResNet-50's forward pass 30 ms, at which the
// built-in networks' and imported models' costs are estimated.
double us_per_mac();

}  // namespace ordo::networks
