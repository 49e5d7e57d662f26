// The one exception the training data readers throw (errors/located_error.hpp): which file and
// where in it (a byte offset or a record), what is wrong, and what was expected there.
#pragma once

#include <string>
#include <utility>

#include "runtime/errors/located_error.hpp"

namespace ordo::data {

class DataError : public errors::LocatedError {
 public:
  DataError(std::string where, std::string problem, std::string expected)
      : errors::LocatedError(std::move(where), std::move(problem), std::move(expected)) {}
};

}  // namespace ordo::data
