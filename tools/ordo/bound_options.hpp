// The options that bound a whole command, `--timeout` and `--memory-max`, read alike by every
// command that has them (`ordo verify`, `ordo fuzz`); command_guard.hpp holds the command to them.
#pragma once

#include <cstdint>

#include "tools/ordo/cli11.hpp"

namespace ordo::tools {

// A finite number of seconds above 0: "nan" compares false with everything and "inf" never runs
// out, so either would turn the bound off.
const CLI::Validator& seconds_bound();

// `--memory-max` into `bytes`: a count of bytes or one with a unit (512M, 4G); 0 while not given,
// which means default_memory_max().
void add_memory_max(CLI::App* sub, std::uint64_t& bytes);

}  // namespace ordo::tools
