#include "fuzz/lib/draws.hpp"

#include <numeric>
#include <stdexcept>

namespace ordo::fuzz {

std::size_t Draws::weighted(std::initializer_list<std::uint64_t> weights) {
  std::uint64_t draw = below(std::accumulate(weights.begin(), weights.end(), std::uint64_t{0}));
  std::size_t index = 0;
  for (const std::uint64_t weight : weights) {
    if (draw < weight) return index;
    draw -= weight;
    ++index;
  }
  return index;  // not reached: the draw is below the sum
}

std::uint64_t TapeDraws::below(std::uint64_t bound) {
  if (bound == 0) throw std::invalid_argument("TapeDraws::below(0)");
  const std::size_t at = next_++;
  if (at < tape_->size()) return (*tape_)[at] % bound;
  if (record_ == nullptr) return 0;
  // A fresh number of 64 random bits: the modulo's bias is below bound / 2^64.
  const std::uint64_t draw = fresh_() % bound;
  record_->push_back(draw);
  return draw;
}

}  // namespace ordo::fuzz
