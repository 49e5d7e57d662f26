// The network `ordo train --model FILE` trains: the model as imported (docs/import.md), with the
// initial values the file holds, once it is known that the trainer computes every operator of it
// and that it takes the data's examples and gives one output per class.
#pragma once

#include <string>

#include "runtime/errors/input_error.hpp"
#include "runtime/networks/initial_values.hpp"
#include "runtime/networks/network.hpp"
#include "runtime/train/job/job_data.hpp"

namespace ordo::train {

struct TrainModel {
  networks::Network network;
  networks::InitialValues initial;
};

// Throws std::invalid_argument (or errors::InputError for a file that does not import) saying what
// does not fit, where, and what was expected: the first node the trainer cannot compute (its
// operator and the file), or an input or output shape that is not the data's.
TrainModel load_train_model(const std::string& file, const std::string& data_shape,
                            const DataShape& data);

}  // namespace ordo::train
