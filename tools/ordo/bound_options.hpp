// The options that bound a command, read alike by every command that has them: time bounds
// (`--timeout`, `--hang-timeout`, `--verify-timeout`) and byte counts (`--memory-max`, the
// designs' sizes). The reading itself is runtime/bounds's; command_guard.hpp holds a command to
// its bounds.
#pragma once

#include <cstdint>

#include "tools/ordo/cli11.hpp"

namespace ordo::tools {

// A finite number of seconds above 0 (bounds::read_seconds).
const CLI::Validator& seconds_bound();

// A byte count with an optional unit (bounds::read_bytes), at least `least`; the option's text is
// replaced by the count of bytes, which CLI11 then stores.
CLI::Validator byte_count(std::uint64_t least);

// `--memory-max` into `bytes`: a count of bytes or one with a unit (512M, 4G); 0 while not given,
// which means default_memory_max().
void add_memory_max(CLI::App* sub, std::uint64_t& bytes);

}  // namespace ordo::tools
