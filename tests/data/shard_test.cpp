// Epoch shards: disjoint across ranks, equal in size, fixed by (seed, epoch) and different from
// one epoch to the next, and the same on every machine (a known permutation pins the generator).
#include "runtime/data/shard.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <vector>

namespace ordo::data {
namespace {

TEST(EpochShard, RanksGetDisjointEqualShards) {
  for (const std::uint32_t ranks : {1u, 2u, 3u, 4u, 7u}) {
    std::set<std::uint32_t> seen;
    for (std::uint32_t r = 0; r < ranks; ++r) {
      const std::vector<std::uint32_t> s = epoch_shard(100, r, ranks, 42, 3);
      EXPECT_EQ(s.size(), 100u / ranks);
      for (std::uint32_t i : s) {
        EXPECT_LT(i, 100u);
        EXPECT_TRUE(seen.insert(i).second) << "index " << i << " given twice";
      }
    }
    EXPECT_EQ(seen.size(), 100u / ranks * ranks);
  }
}

TEST(EpochShard, FixedBySeedAndEpochAndReshuffledEveryEpoch) {
  EXPECT_EQ(epoch_shard(1000, 1, 4, 5, 2), epoch_shard(1000, 1, 4, 5, 2));
  EXPECT_NE(epoch_shard(1000, 1, 4, 5, 2), epoch_shard(1000, 1, 4, 5, 3));
  EXPECT_NE(epoch_shard(1000, 1, 4, 5, 2), epoch_shard(1000, 1, 4, 6, 2));
  std::vector<std::uint32_t> sorted = epoch_shard(10, 0, 1, 5, 0);
  EXPECT_FALSE(std::is_sorted(sorted.begin(), sorted.end()));
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(EpochShard, ThePermutationIsPinned) {
  // SplitMix64 (runtime/random) and Fisher-Yates (shard.cpp), computed once by hand-written code
  // outside the project: a change to either changes the order a resumed run relies on.
  EXPECT_EQ(epoch_shard(8, 0, 1, 1, 0), (std::vector<std::uint32_t>{2, 5, 0, 3, 4, 6, 1, 7}));
}

TEST(EpochShard, BadRanksAreErrors) {
  EXPECT_THROW(epoch_shard(10, 0, 0, 1, 0), std::invalid_argument);
  EXPECT_THROW(epoch_shard(10, 2, 2, 1, 0), std::invalid_argument);
}

}  // namespace
}  // namespace ordo::data
