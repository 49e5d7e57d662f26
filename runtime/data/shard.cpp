#include "runtime/data/shard.hpp"

#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "runtime/random/split_mix64.hpp"

namespace ordo::data {

std::uint32_t shard_size(std::uint32_t count, std::uint32_t ranks) {
  if (ranks == 0) throw std::invalid_argument("a shard of a set over 0 ranks");
  return count / ranks;
}

std::vector<std::uint32_t> epoch_shard(std::uint32_t count, std::uint32_t rank, std::uint32_t ranks,
                                       std::uint64_t seed, std::uint64_t epoch) {
  const std::uint32_t size = shard_size(count, ranks);
  if (rank >= ranks) {
    throw std::invalid_argument("rank " + std::to_string(rank) + " of " + std::to_string(ranks));
  }
  std::vector<std::uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  random::SplitMix64 rng(seed ^ (epoch * 0xd1342543de82ef95ull + 1));
  for (std::uint32_t i = count; i > 1; --i) {  // Fisher-Yates
    std::swap(order[i - 1], order[static_cast<std::uint32_t>(rng.below(i))]);
  }
  std::vector<std::uint32_t> shard(size);
  for (std::uint32_t k = 0; k < size; ++k) shard[k] = order[std::size_t{k} * ranks + rank];
  return shard;
}

}  // namespace ordo::data
