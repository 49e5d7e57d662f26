// The one exception the checkpoint readers throw (errors/located_error.hpp): which file and where
// in it, what is wrong, and what was expected there.
#pragma once

#include <string>
#include <utility>

#include "runtime/errors/located_error.hpp"

namespace ordo::checkpoint {

class CheckpointError : public errors::LocatedError {
 public:
  CheckpointError(std::string where, std::string problem, std::string expected)
      : errors::LocatedError(std::move(where), std::move(problem), std::move(expected)) {}
};

}  // namespace ordo::checkpoint
