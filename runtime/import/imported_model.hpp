// What importing a model gives the commands: the network (with every layer's ops and the input
// shape when the trainer can compute each of its operators), why the trainer cannot where it
// cannot, and the initial values the file holds.
#pragma once

#include <string>

#include "runtime/errors/input_error.hpp"
#include "runtime/networks/initial_values.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::import {

struct ImportedModel {
  networks::Network network;
  // Empty when the network computes; else the first node the trainer cannot compute: where it is
  // ("/nodes/3") and what ("node 'x' ('Op'): why"), as a errors::InputError has them.
  std::string untrainable_at;
  std::string untrainable;
  networks::InitialValues initial;
  bool trainable() const { return untrainable.empty(); }
};

}  // namespace ordo::import
