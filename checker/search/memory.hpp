// The process's resident memory, which the searches bound (ExploreLimits::bytes_max): the
// visited set and the stack of states are most of it, and counting them exactly would cost more
// than reading what the kernel already counts.
#pragma once

#include <cstdint>

namespace ordo::checker {

// Resident set size in bytes, from /proc/self/statm; 0 where that cannot be read, which turns
// the memory bound off rather than failing the search.
std::uint64_t resident_bytes();

}  // namespace ordo::checker
