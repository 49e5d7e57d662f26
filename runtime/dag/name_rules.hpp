// What makes a string usable as the name of a var, pool, op, program or communicator. The reader
// applies the rule to dumps and validate() to jobs built in memory: names are how a dump refers
// to things, and how reports and counterexamples tell a user which op is meant.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ordo::dag {

// Why `name` is not a valid name (empty, too long, not UTF-8, or holding a control character),
// or nullopt if it is valid.
std::optional<std::string> name_problem(std::string_view name);

// The rule in words, for the "expected ..." part of diagnostics.
std::string name_expectation();

}  // namespace ordo::dag
