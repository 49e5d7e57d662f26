#include "runtime/data/data_error.hpp"

#include <utility>

namespace ordo::data {

DataError::DataError(std::string where, std::string problem, std::string expected)
    : std::runtime_error(where + ": " + problem + " (expected " + expected + ")"),
      where_(std::move(where)),
      problem_(std::move(problem)),
      expected_(std::move(expected)) {}

}  // namespace ordo::data
