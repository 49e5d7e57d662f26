// f16 and bf16 conversions against bit patterns worked out by hand from IEEE 754.
#include "runtime/comm/half.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace ordo::comm {
namespace {

bool is_f16_nan(std::uint16_t bits) { return (bits & 0x7C00u) == 0x7C00u && (bits & 0x3FFu); }
bool is_bf16_nan(std::uint16_t bits) { return (bits & 0x7F80u) == 0x7F80u && (bits & 0x7Fu); }

TEST(F16, ExactValuesEncode) {
  EXPECT_EQ(f16_from_float(0.0f), 0x0000u);
  EXPECT_EQ(f16_from_float(-0.0f), 0x8000u);
  EXPECT_EQ(f16_from_float(1.0f), 0x3C00u);
  EXPECT_EQ(f16_from_float(-2.0f), 0xC000u);
  EXPECT_EQ(f16_from_float(65504.0f), 0x7BFFu);               // largest finite
  EXPECT_EQ(f16_from_float(std::ldexp(1.0f, -14)), 0x0400u);  // smallest normal
  EXPECT_EQ(f16_from_float(std::ldexp(1.0f, -24)), 0x0001u);  // smallest subnormal
}

TEST(F16, TiesRoundToEven) {
  // 1 + 2^-11 lies halfway between 1 (even mantissa) and 1 + 2^-10 (odd): down to 1.
  EXPECT_EQ(f16_from_float(1.0f + std::ldexp(1.0f, -11)), 0x3C00u);
  // 1 + 3 * 2^-11 lies halfway between 1 + 2^-10 (odd) and 1 + 2^-9 (even): up.
  EXPECT_EQ(f16_from_float(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02u);
  // 2049 between 2048 (even) and 2050 (odd); 2051 between 2050 and 2052 (even).
  EXPECT_EQ(f16_from_float(2049.0f), f16_from_float(2048.0f));
  EXPECT_EQ(f16_from_float(2051.0f), f16_from_float(2052.0f));
  // Just above a tie rounds up regardless of parity.
  EXPECT_EQ(f16_from_float(std::nextafter(2049.0f, 3000.0f)), f16_from_float(2050.0f));
}

TEST(F16, OverflowUnderflowAndSubnormalTies) {
  EXPECT_EQ(f16_from_float(65519.0f), 0x7BFFu);  // below the tie with 65536
  EXPECT_EQ(f16_from_float(65520.0f), 0x7C00u);  // the tie rounds to even: infinity
  EXPECT_EQ(f16_from_float(-1e9f), 0xFC00u);
  EXPECT_EQ(f16_from_float(std::numeric_limits<float>::infinity()), 0x7C00u);
  EXPECT_EQ(f16_from_float(std::ldexp(1.0f, -25)), 0x0000u);         // half the smallest: to 0
  EXPECT_EQ(f16_from_float(1.5f * std::ldexp(1.0f, -25)), 0x0001u);  // above half: up
  EXPECT_EQ(f16_from_float(3 * std::ldexp(1.0f, -25)), 0x0002u);     // 1.5 units: to even 2
  EXPECT_EQ(f16_from_float(-std::ldexp(1.0f, -30)), 0x8000u);
  // The largest subnormal plus half a unit carries into the smallest normal.
  EXPECT_EQ(f16_from_float(1023.5f * std::ldexp(1.0f, -24)), 0x0400u);
}

TEST(F16, NanStaysNan) {
  EXPECT_TRUE(is_f16_nan(f16_from_float(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_TRUE(is_f16_nan(f16_from_float(-std::numeric_limits<float>::quiet_NaN())));
  // A NaN whose payload lives only in the low float bits must not become infinity.
  EXPECT_TRUE(is_f16_nan(f16_from_float(std::bit_cast<float>(0x7F80'0001u))));
  EXPECT_TRUE(std::isnan(float_from_f16(0x7E00u)));
}

TEST(F16, EveryPatternRoundTripsThroughFloat) {
  for (std::uint32_t bits = 0; bits <= 0xFFFFu; ++bits) {
    const auto h = static_cast<std::uint16_t>(bits);
    if (is_f16_nan(h)) continue;
    ASSERT_EQ(f16_from_float(float_from_f16(h)), h) << "pattern " << bits;
  }
  EXPECT_EQ(float_from_f16(0x0001u), std::ldexp(1.0f, -24));
  EXPECT_EQ(float_from_f16(0xFBFFu), -65504.0f);
}

TEST(Bf16, ExactValuesAndTies) {
  EXPECT_EQ(bf16_from_float(1.0f), 0x3F80u);
  EXPECT_EQ(bf16_from_float(-2.0f), 0xC000u);
  // 1 + 2^-8 is halfway between 1 (even) and 1 + 2^-7 (odd): down. 1 + 3 * 2^-8: up to even.
  EXPECT_EQ(bf16_from_float(1.0f + std::ldexp(1.0f, -8)), 0x3F80u);
  EXPECT_EQ(bf16_from_float(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82u);
  EXPECT_EQ(bf16_from_float(257.0f), bf16_from_float(256.0f));
  EXPECT_EQ(bf16_from_float(259.0f), bf16_from_float(260.0f));
  EXPECT_EQ(bf16_from_float(std::numeric_limits<float>::max()), 0x7F80u);  // rounds to infinity
  EXPECT_EQ(bf16_from_float(-std::numeric_limits<float>::infinity()), 0xFF80u);
}

TEST(Bf16, NanStaysNanAndPatternsRoundTrip) {
  EXPECT_TRUE(is_bf16_nan(bf16_from_float(std::bit_cast<float>(0x7F80'0001u))));
  EXPECT_TRUE(is_bf16_nan(bf16_from_float(std::numeric_limits<float>::quiet_NaN())));
  for (std::uint32_t bits = 0; bits <= 0xFFFFu; ++bits) {
    const auto h = static_cast<std::uint16_t>(bits);
    if (is_bf16_nan(h)) continue;
    ASSERT_EQ(bf16_from_float(float_from_bf16(h)), h) << "pattern " << bits;
  }
}

}  // namespace
}  // namespace ordo::comm
