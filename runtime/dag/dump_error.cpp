#include "runtime/dag/dump_error.hpp"

#include <cassert>
#include <utility>

namespace ordo::dag {

DumpError::DumpError(std::string where, std::string problem, std::string expected)
    : errors::InputError(std::move(where), std::move(problem), std::move(expected)) {
  assert(!this->where().empty() && "a dump error always has a location");
  assert(!this->problem().empty() && !this->expected().empty() &&
         "a dump error says what and what instead");
}

DumpError::DumpError(const errors::InputError& error)
    : DumpError(error.where(), error.problem(), error.expected()) {}

}  // namespace ordo::dag
