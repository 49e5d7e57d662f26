// The checks the other tests rely on must themselves be able to fail: a difference on one rank
// only, or in one bit, is reported.
#include "rank_checks.hpp"

#include <gtest/gtest.h>

#include "tests/comm/mpi_env.hpp"

namespace ordo::kvstore::mpi_test {
namespace {

TEST(RankChecks, SameOnEveryRankSeesABitFlippedOnTheLastRankOnly) {
  const dag::Rank rank = comm::test::world().rank();
  const dag::Rank last = comm::test::world().size() - 1;
  std::vector<std::byte> bytes = weight_pattern(0, 1, 1023);
  EXPECT_TRUE(same_on_every_rank(bytes_of(bytes)));
  if (rank == last) bytes[517] ^= std::byte{0x01};
  // Every rank learns of the last rank's difference, not only the last rank.
  EXPECT_FALSE(same_on_every_rank(bytes_of(bytes)));
}

TEST(RankChecks, DifferenceNamesTheFirstDifferingElement) {
  std::vector<std::byte> want = weight_pattern(0, 2, 64);
  std::vector<std::byte> got = want;
  EXPECT_EQ(f32_difference(bytes_of(got), bytes_of(want), "w"), "");
  got[4 * 9 + 3] ^= std::byte{0x80};  // the sign bit of element 9
  const std::string report = f32_difference(bytes_of(got), bytes_of(want), "w");
  EXPECT_NE(report.find("w: element 9 of 64"), std::string::npos) << report;
  got.resize(8);
  EXPECT_NE(f32_difference(bytes_of(got), bytes_of(want), "w").find("8 bytes"), std::string::npos);
}

TEST(RankChecks, RankPatternsDifferAndSumsAreExact) {
  EXPECT_NE(weight_pattern(0, 3, 1024), weight_pattern(1, 3, 1024));
  EXPECT_NE(weight_pattern(0, 3, 1024), weight_pattern(0, 4, 1024));
  // gradient_value is (rank + 1) * (key % 7 + 1) + i % 5 + step: for key 9, element 6, step 2
  // the terms are 3(r + 1) + 1 + 2 = 3r + 6, so four ranks sum to 3 * 6 + 24 = 42.
  EXPECT_EQ(expected_sum(4, 9, 7, 2)[6], 42.0f);
}

}  // namespace
}  // namespace ordo::kvstore::mpi_test
