// Why an answer is unknown, in one line, for the outputs a CI system reads (a SARIF
// notification, a JUnit skip): the rank count, the bound reached and the `ordo verify` option
// that raises it.
#pragma once

#include <string>
#include <string_view>

#include "checker/verify/verify.hpp"

namespace ordo::checker {

// "not decided at 2 rank(s): bound states_max reached before the search ended; raise
// --states-max"
std::string undecided_words(const Verification& verification);

// The `ordo verify` option that sets each bound: "--states-max", "--timeout", "--memory-max".
std::string_view option_of(Bound bound);

}  // namespace ordo::checker
