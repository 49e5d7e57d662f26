#include "runtime/comm/half.hpp"

#include <bit>
#include <cassert>
#include <cmath>

namespace ordo::comm {
namespace {

constexpr std::uint32_t float_abs_mask = 0x7FFF'FFFFu;
constexpr std::uint32_t float_inf_bits = 0x7F80'0000u;
constexpr std::uint32_t float_mantissa_bits = 23;
constexpr std::uint32_t f16_mantissa_bits = 10;
constexpr std::uint32_t f16_inf_bits = 0x7C00u;
constexpr std::uint32_t f16_quiet_bit = 0x0200u;
// Exponent bias difference float (127) - f16 (15).
constexpr std::uint32_t f16_rebias = 112;
// Smallest float that is a normal f16 (2^-14), and below which a value rounds to zero (2^-25 is
// exactly half the smallest f16 subnormal, and that tie rounds to the even neighbour, zero).
constexpr std::uint32_t f16_min_normal_as_float = 0x3880'0000u;
constexpr std::uint32_t f16_half_min_subnormal_as_float = 0x3300'0000u;

std::uint16_t f16_from_subnormal_range(std::uint32_t abs_bits) {
  assert(abs_bits >= f16_half_min_subnormal_as_float && abs_bits < f16_min_normal_as_float);
  const std::uint32_t exponent = abs_bits >> float_mantissa_bits;
  const std::uint32_t significand = (abs_bits & 0x7F'FFFFu) | 0x80'0000u;
  // The f16 subnormal unit is 2^-24; significand * 2^(exponent-150) / 2^-24 is a right shift.
  const std::uint32_t shift = 126 - exponent;
  assert(shift >= 14 && shift <= 24);
  std::uint32_t result = significand >> shift;
  const std::uint32_t remainder = significand & ((1u << shift) - 1);
  const std::uint32_t halfway = 1u << (shift - 1);
  if (remainder > halfway || (remainder == halfway && (result & 1u) != 0)) ++result;
  // Rounding up from the largest subnormal yields 0x400, the smallest normal: still correct.
  assert(result <= 0x400u);
  return static_cast<std::uint16_t>(result);
}

}  // namespace

std::uint16_t f16_from_float(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const std::uint32_t abs_bits = bits & float_abs_mask;
  if (abs_bits > float_inf_bits) {
    const std::uint32_t payload = (abs_bits >> (float_mantissa_bits - f16_mantissa_bits)) & 0x3FFu;
    return static_cast<std::uint16_t>(sign | f16_inf_bits | f16_quiet_bit | payload);
  }
  if (abs_bits >= f16_min_normal_as_float) {
    const std::uint32_t drop = float_mantissa_bits - f16_mantissa_bits;
    const std::uint32_t lsb = (abs_bits >> drop) & 1u;
    // Adding just under half an f16 ulp, plus one when the kept lsb is odd, rounds half to even;
    // a carry out of the mantissa correctly bumps the exponent, up to infinity.
    const std::uint32_t rounded = (abs_bits + ((1u << (drop - 1)) - 1) + lsb) >> drop;
    const std::uint32_t result = rounded - (f16_rebias << f16_mantissa_bits);
    return static_cast<std::uint16_t>(sign | (result >= f16_inf_bits ? f16_inf_bits : result));
  }
  if (abs_bits < f16_half_min_subnormal_as_float) return sign;
  return static_cast<std::uint16_t>(sign | f16_from_subnormal_range(abs_bits));
}

float float_from_f16(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> f16_mantissa_bits) & 0x1Fu;
  const std::uint32_t mantissa = bits & 0x3FFu;
  const std::uint32_t drop = float_mantissa_bits - f16_mantissa_bits;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float.
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign != 0 ? -magnitude : magnitude;
  }
  if (exponent == 0x1Fu) return std::bit_cast<float>(sign | float_inf_bits | (mantissa << drop));
  return std::bit_cast<float>(sign | ((exponent + f16_rebias) << float_mantissa_bits) |
                              (mantissa << drop));
}

std::uint16_t bf16_from_float(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  if ((bits & float_abs_mask) > float_inf_bits) {
    // Keep sign and payload top bits, force quiet so truncation cannot turn NaN into infinity.
    return static_cast<std::uint16_t>((bits >> 16) | 0x0040u);
  }
  const std::uint32_t lsb = (bits >> 16) & 1u;
  return static_cast<std::uint16_t>((bits + 0x7FFFu + lsb) >> 16);
}

float float_from_bf16(std::uint16_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

}  // namespace ordo::comm
