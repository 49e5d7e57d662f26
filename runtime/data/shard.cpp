#include "runtime/data/shard.hpp"

#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace ordo::data {

namespace {

// SplitMix64: a small generator whose output is fixed by its definition.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound) by rejection, so no index is favoured.
  std::uint64_t below(std::uint64_t bound) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    for (;;) {
      const std::uint64_t x = next();
      if (x < limit) return x % bound;
    }
  }

 private:
  std::uint64_t state_;
};

}  // namespace

std::uint32_t shard_size(std::uint32_t count, std::uint32_t ranks) {
  if (ranks == 0) throw std::invalid_argument("a shard of a set over 0 ranks");
  return count / ranks;
}

std::vector<std::uint32_t> epoch_shard(std::uint32_t count, std::uint32_t rank,
                                       std::uint32_t ranks, std::uint64_t seed,
                                       std::uint64_t epoch) {
  const std::uint32_t size = shard_size(count, ranks);
  if (rank >= ranks) {
    throw std::invalid_argument("rank " + std::to_string(rank) + " of " + std::to_string(ranks));
  }
  std::vector<std::uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  SplitMix64 rng(seed ^ (epoch * 0xd1342543de82ef95ull + 1));
  for (std::uint32_t i = count; i > 1; --i) {  // Fisher-Yates
    std::swap(order[i - 1], order[static_cast<std::uint32_t>(rng.below(i))]);
  }
  std::vector<std::uint32_t> shard(size);
  for (std::uint32_t k = 0; k < size; ++k) shard[k] = order[std::size_t{k} * ranks + rank];
  return shard;
}

}  // namespace ordo::data
