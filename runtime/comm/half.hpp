// IEEE binary16 (f16) and bfloat16 (bf16) as raw 16-bit patterns. Neither has an MPI datatype in
// Open MPI 4.1, so reductions convert to float, combine, and convert back; these are the two
// conversions, written once for every backend.
#pragma once

#include <cstdint>

namespace ordo::comm {

// Float to 16 bits rounds to nearest, ties to even, as IEEE 754 requires by default: values past
// the largest finite 16-bit value become infinity, values below half the smallest subnormal
// become (signed) zero, and NaN stays a quiet NaN. Widening to float is exact.
std::uint16_t f16_from_float(float value);
float float_from_f16(std::uint16_t bits);

std::uint16_t bf16_from_float(float value);
float float_from_bf16(std::uint16_t bits);

}  // namespace ordo::comm
