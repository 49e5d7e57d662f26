// A rank's training state as a checkpoint (checkpoint/checkpoint_file.hpp) and back: the
// parameters (the KVStore's weight vars, which the model's tensors view), their momenta and every
// layer's per-rank buffers (batch norm's running statistics), by name and shape, so that a
// resumed rank continues from exactly the values it stopped with.
#pragma once

#include "runtime/checkpoint/checkpoint_file.hpp"
#include "runtime/train/model/model.hpp"
#include "runtime/train/step_compute.hpp"

namespace ordo::train {

// The arrays of `model` and `compute`; the caller fills the checkpoint's other fields.
std::vector<checkpoint::Array> capture_arrays(Model& model, StepCompute& compute);
// The same arrays before the first step, without a StepCompute: the model's parameters and
// buffers, and momenta of zeros (what StepCompute starts from).
std::vector<checkpoint::Array> capture_initial_arrays(Model& model);

// Copies the arrays into `model` and `compute`. Throws checkpoint::CheckpointError naming
// `source` when an array is missing, extra, misnamed or of another shape: a checkpoint of another
// network is refused before any value changes.
void restore_arrays(const std::vector<checkpoint::Array>& arrays, const std::string& source,
                    Model& model, StepCompute& compute);

}  // namespace ordo::train
