#include "runtime/dag/dump_error.hpp"

#include <cassert>
#include <utility>

namespace ordo::dag {

DumpError::DumpError(std::string where, std::string problem, std::string expected)
    : std::runtime_error(where + ": " + problem + "; expected " + expected),
      where_(std::move(where)),
      problem_(std::move(problem)),
      expected_(std::move(expected)) {
  assert(!where_.empty() && "a dump error always has a location");
  assert(!problem_.empty() && !expected_.empty() && "a dump error says what and what instead");
}

}  // namespace ordo::dag
