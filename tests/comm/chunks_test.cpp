// The chunk plan: bounds, the empty call, and the INT_MAX boundary.
#include "runtime/comm/mpi/chunks.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <stdexcept>

namespace ordo::comm {
namespace {

TEST(Chunks, CoverTheBufferInOrderWithinTheBound) {
  constexpr std::uint64_t count = 2500;
  constexpr std::uint64_t size = 1000;
  ASSERT_EQ(chunk_count(count, size), 3u);
  std::uint64_t next = 0;
  for (std::uint64_t i = 0; i < 3; ++i) {
    const Chunk chunk = chunk_at(count, size, i);
    EXPECT_EQ(chunk.first, next);
    EXPECT_GT(chunk.count, 0);
    EXPECT_LE(static_cast<std::uint64_t>(chunk.count), size);
    next += static_cast<std::uint64_t>(chunk.count);
  }
  EXPECT_EQ(next, count);
  EXPECT_EQ(chunk_at(count, size, 2).count, 500);
}

TEST(Chunks, ExactMultipleHasNoEmptyTail) {
  EXPECT_EQ(chunk_count(3000, 1000), 3u);
  EXPECT_EQ(chunk_at(3000, 1000, 2).count, 1000);
}

TEST(Chunks, EmptyCallIsOneEmptyChunk) {
  EXPECT_EQ(chunk_count(0, 1000), 1u);
  EXPECT_EQ(chunk_at(0, 1000, 0).count, 0);
}

TEST(Chunks, IntMaxBoundary) {
  constexpr auto int_max = static_cast<std::uint64_t>(INT_MAX);
  EXPECT_EQ(chunk_count(int_max, int_max), 1u);
  EXPECT_EQ(chunk_count(int_max + 1, int_max), 2u);
  EXPECT_EQ(chunk_at(int_max + 1, int_max, 1).first, int_max);
  EXPECT_EQ(chunk_at(int_max + 1, int_max, 1).count, 1);
  EXPECT_EQ(chunk_count(5 * int_max + 7, int_max), 6u);
}

TEST(Chunks, RejectsBadSizesAndIndices) {
  EXPECT_THROW(chunk_count(10, 0), std::invalid_argument);
  EXPECT_THROW(chunk_count(10, static_cast<std::uint64_t>(INT_MAX) + 1), std::invalid_argument);
  EXPECT_THROW(chunk_at(10, 5, 2), std::out_of_range);
}

}  // namespace
}  // namespace ordo::comm
