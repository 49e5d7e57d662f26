// f16 and bf16 through MPI's user-defined ops: sums that must round, ties to even, so the result
// shows the rounding happened after each combination and in the right direction. Only ranks 0 and
// 1 contribute non-zero values, so any order MPI combines them in gives the same bits.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "mpi_env.hpp"
#include "runtime/comm/half.hpp"

namespace ordo::comm::test {
namespace {

using dag::DType;
using dag::Reduction;

using Convert = std::uint16_t (*)(float);

std::vector<std::uint16_t> encode(const std::vector<float>& values, Convert convert) {
  std::vector<std::uint16_t> bits;
  for (const float value : values) bits.push_back(convert(value));
  return bits;
}

// Rank 0 contributes `big`, rank 1 `small`, the other ranks zero.
std::vector<std::uint16_t> summed(DType dtype, Convert convert, const std::vector<float>& big,
                                  const std::vector<float>& small) {
  std::vector<float> mine(big.size(), 0.0f);
  if (world().rank() == 0) mine = big;
  if (world().rank() == 1) mine = small;
  std::vector<std::uint16_t> buffer = encode(mine, convert);
  world_comm().allreduce(buffer.data(), buffer.size(), dtype, Reduction::sum);
  return buffer;
}

TEST(HalfAllreduce, F16SumRoundsTiesToEven) {
  // 2048 + 1 = 2049 is a tie between 2048 (even) and 2050: down. 2050 + 1 ties between 2050 and
  // 2052 (even): up. The magnitudes mirror for negative values.
  EXPECT_EQ(summed(DType::f16, f16_from_float, {2048, 2050, -2048, -2050}, {1, 1, -1, -1}),
            encode({2048, 2052, -2048, -2052}, f16_from_float));
}

TEST(HalfAllreduce, Bf16SumRoundsTiesToEven) {
  // bf16 keeps 8 significant bits: 257 ties down to 256, 259 up to 260.
  EXPECT_EQ(summed(DType::bf16, bf16_from_float, {256, 258, -256}, {1, 1, -1}),
            encode({256, 260, -256}, bf16_from_float));
}

TEST(HalfAllreduce, MinAndMaxCompareValuesNotBits) {
  // As raw unsigned 16-bit patterns every negative value compares above every positive one.
  const float mine = world().rank() == 0 ? -3.0f : 0.5f * static_cast<float>(world().rank());
  for (const auto& [dtype, convert] : {std::pair{DType::f16, Convert{f16_from_float}},
                                       std::pair{DType::bf16, Convert{bf16_from_float}}}) {
    std::uint16_t low = convert(mine);
    std::uint16_t high = convert(mine);
    world_comm().allreduce(&low, 1, dtype, Reduction::min);
    world_comm().allreduce(&high, 1, dtype, Reduction::max);
    EXPECT_EQ(low, convert(-3.0f));
    EXPECT_EQ(high, convert(0.5f * static_cast<float>(world().size() - 1)));
  }
}

}  // namespace
}  // namespace ordo::comm::test
