// SplitMix64 (Steele, Lea and Flood): a small generator whose every output is fixed by its
// definition, unlike the standard library's distributions, whose results the C++ standard leaves
// to the implementation. What must replay the same everywhere draws from it: the engine's random
// schedules and the trainer's epoch shuffles.
#pragma once

#include <cstdint>
#include <stdexcept>

namespace ordo::random {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    state_ += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, bound): draws past the largest multiple of bound are rejected, so no value
  // is favoured. Throws std::invalid_argument for a bound of 0.
  std::uint64_t below(std::uint64_t bound) {
    if (bound == 0) throw std::invalid_argument("SplitMix64::below(0)");
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    std::uint64_t draw = next();
    while (draw >= limit) draw = next();
    return draw % bound;
  }

 private:
  std::uint64_t state_;
};

}  // namespace ordo::random
