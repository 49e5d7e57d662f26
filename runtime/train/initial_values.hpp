// A model file's initial values (networks/initial_values.hpp) set on the trainer's model, after
// init_params has drawn every parameter: what the file gives replaces what was drawn.
#pragma once

#include "runtime/networks/initial_values.hpp"
#include "runtime/train/model/model.hpp"

namespace ordo::train {

// Throws std::invalid_argument naming the key or layer when a value is not of its tensor's
// shape, or names a key or layer the model does not have (or a layer without running
// statistics).
void set_initial_values(Model& model, const networks::InitialValues& values);

}  // namespace ordo::train
