// Which examples a rank trains on in an epoch: every epoch a fresh permutation of the whole set
// from (seed, epoch), dealt round-robin to the ranks. Every rank gets the same count (the
// remainder of the set over the ranks sits the epoch out), because a rank with one step more
// would issue one allreduce more: a collective mismatch, the very fault ordo exists to prevent.
// The permutation is Fisher-Yates over SplitMix64 (runtime/random), not std::shuffle, whose
// result the C++ standard leaves to the library, so a resumed run and another machine see the
// same order.
#pragma once

#include <cstdint>
#include <vector>

namespace ordo::data {

// Examples each rank gets per epoch: floor(count / ranks).
std::uint32_t shard_size(std::uint32_t count, std::uint32_t ranks);

// The indices `rank` trains on in `epoch`, in the order it trains on them. Throws
// std::invalid_argument when ranks is 0 or rank is not below it.
std::vector<std::uint32_t> epoch_shard(std::uint32_t count, std::uint32_t rank, std::uint32_t ranks,
                                       std::uint64_t seed, std::uint64_t epoch);

}  // namespace ordo::data
