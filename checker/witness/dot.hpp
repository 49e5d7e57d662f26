// A Graphviz picture of a violation (`ordo verify --dot FILE`): for a deadlock the wait-for
// graph between ranks, each edge a party in a call that the target rank has not issued; for a
// mismatch the calls that meet at one sequence number of a communicator; for a thread-rule break
// the two calls of one rank in flight together. Render with `dot -Tsvg FILE`.
#pragma once

#include <string>

#include "checker/search/verdict.hpp"
#include "checker/system/system.hpp"

namespace ordo::checker {

// A digraph for an unsafe result; for any other result a graph with one note saying so.
std::string to_dot(const System& model, const Result& result);

}  // namespace ordo::checker
