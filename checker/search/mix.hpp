// MurmurHash3's 64-bit finaliser: spreads every input bit over the low bits that the searches'
// power-of-two tables index by. Their keys are small integers and short byte strings, which
// std::hash would leave nearly as they are.
#pragma once

#include <cstdint>

namespace ordo::checker {

inline std::uint64_t mix64(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

}  // namespace ordo::checker
