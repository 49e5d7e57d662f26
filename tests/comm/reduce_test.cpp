// reduce_into for every dtype, against results written out by hand.
#include "runtime/comm/reduce.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "runtime/comm/half.hpp"

namespace ordo::comm {
namespace {

using dag::DType;
using dag::Reduction;

template <typename T>
std::vector<T> reduced(std::vector<T> inout, const std::vector<T>& in, DType dtype,
                       Reduction reduction) {
  reduce_into(inout.data(), in.data(), inout.size(), dtype, reduction);
  return inout;
}

TEST(ReduceInto, NativeTypes) {
  EXPECT_EQ(reduced<float>({1.5f, -2.0f}, {2.0f, 3.0f}, DType::f32, Reduction::sum),
            (std::vector<float>{3.5f, 1.0f}));
  EXPECT_EQ(reduced<double>({1.5, -2.0}, {2.0, 3.0}, DType::f64, Reduction::prod),
            (std::vector<double>{3.0, -6.0}));
  EXPECT_EQ(reduced<std::int8_t>({-3, 7}, {5, -9}, DType::i8, Reduction::min),
            (std::vector<std::int8_t>{-3, -9}));
  EXPECT_EQ(reduced<std::uint8_t>({3, 200}, {5, 100}, DType::u8, Reduction::max),
            (std::vector<std::uint8_t>{5, 200}));
  EXPECT_EQ(reduced<std::int32_t>({-4, 6}, {5, 7}, DType::i32, Reduction::sum),
            (std::vector<std::int32_t>{1, 13}));
  EXPECT_EQ(reduced<std::int64_t>({1ll << 40, -3}, {4, 5}, DType::i64, Reduction::prod),
            (std::vector<std::int64_t>{1ll << 42, -15}));
}

TEST(ReduceInto, IntegersWrapInsteadOfOverflowing) {
  constexpr auto i32_max = std::numeric_limits<std::int32_t>::max();
  constexpr auto i32_min = std::numeric_limits<std::int32_t>::min();
  EXPECT_EQ(reduced<std::int32_t>({i32_max}, {1}, DType::i32, Reduction::sum)[0], i32_min);
  EXPECT_EQ(reduced<std::uint8_t>({200}, {100}, DType::u8, Reduction::sum)[0], 44);
  EXPECT_EQ(reduced<std::int8_t>({100}, {2}, DType::i8, Reduction::prod)[0], -56);
}

TEST(ReduceInto, SixteenBitFloatsRoundEachPair) {
  const std::vector<std::uint16_t> a = {f16_from_float(2048.0f), f16_from_float(2050.0f),
                                        f16_from_float(-1.5f)};
  const std::vector<std::uint16_t> b = {f16_from_float(1.0f), f16_from_float(1.0f),
                                        f16_from_float(0.25f)};
  EXPECT_EQ(reduced(a, b, DType::f16, Reduction::sum),
            (std::vector<std::uint16_t>{f16_from_float(2048.0f), f16_from_float(2052.0f),
                                        f16_from_float(-1.25f)}));
  EXPECT_EQ(reduced(a, b, DType::f16, Reduction::min)[2], f16_from_float(-1.5f));
  const std::vector<std::uint16_t> c = {bf16_from_float(256.0f), bf16_from_float(3.0f)};
  const std::vector<std::uint16_t> d = {bf16_from_float(1.0f), bf16_from_float(-2.0f)};
  EXPECT_EQ(reduced(c, d, DType::bf16, Reduction::sum),
            (std::vector<std::uint16_t>{bf16_from_float(256.0f), bf16_from_float(1.0f)}));
  EXPECT_EQ(reduced(c, d, DType::bf16, Reduction::prod)[1], bf16_from_float(-6.0f));
  EXPECT_EQ(reduced(c, d, DType::bf16, Reduction::max)[1], bf16_from_float(3.0f));
}

TEST(ReduceInto, RejectsNoneAndUnknownValues) {
  float a = 1.0f;
  const float b = 2.0f;
  EXPECT_THROW(reduce_into(&a, &b, 1, DType::f32, Reduction::none), std::invalid_argument);
  EXPECT_THROW(reduce_into(&a, &b, 1, static_cast<DType>(99), Reduction::sum),
               std::invalid_argument);
  EXPECT_EQ(a, 1.0f);
}

}  // namespace
}  // namespace ordo::comm
