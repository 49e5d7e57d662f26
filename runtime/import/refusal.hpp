// How the importers refuse a model they cannot take: std::invalid_argument with the reason, which
// the commands report as bad input, naming the file.
#pragma once

#include <stdexcept>
#include <string>

namespace ordo::import {

[[noreturn]] inline void bad(const std::string& why) { throw std::invalid_argument(why); }

}  // namespace ordo::import
