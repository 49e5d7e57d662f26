// CLI11, as every file of the command line includes it: g++ 12 finds a null pointer in CLI11's
// detail::split (a std::string of a vector it has just grown) that is not there, in some
// translation units and not others as inlining falls, so the warning is turned off for CLI11's
// own code alone.
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop
