// Why an answer is unknown, in one line, for the outputs a CI system reads (a SARIF
// notification, a JUnit skip): the rank count, the bound reached and the `ordo verify` option
// that raises it.
#pragma once

#include <string>

#include "checker/verify.hpp"

namespace ordo::checker {

// "not decided at 2 rank(s): bound states_max reached before the search ended; raise
// --states-max"
std::string undecided_words(const Verification& verification);

}  // namespace ordo::checker
