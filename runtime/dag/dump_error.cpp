#include "runtime/dag/dump_error.hpp"

#include <cassert>
#include <utility>

namespace ordo::dag {

DumpError::DumpError(std::string where, std::string problem, std::string expected)
    : errors::LocatedError(std::move(where), std::move(problem), std::move(expected)) {
  assert(!this->where().empty() && "a dump error always has a location");
  assert(!this->problem().empty() && !this->expected().empty() &&
         "a dump error says what and what instead");
}

}  // namespace ordo::dag
