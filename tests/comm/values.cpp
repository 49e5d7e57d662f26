#include "values.hpp"

#include <cassert>
#include <cstring>
#include <stdexcept>

#include "runtime/comm/half.hpp"

namespace ordo::comm::test {
namespace {

// Values depend on the element index only through i % pattern_period (a multiple of 5, 4 and 3,
// the moduli below), so one period is computed and then copied along the buffer: 64 MiB buffers
// cost a memcpy, not 16M computations per rank.
constexpr std::uint64_t pattern_period = 60;

std::int64_t value(dag::DType dtype, dag::Reduction reduction, std::uint64_t i, dag::Rank rank) {
  const bool is_signed = dtype != dag::DType::u8;
  const auto r = static_cast<std::uint64_t>(rank);
  if (reduction == dag::Reduction::prod) {
    const std::int64_t magnitude = (i + r) % 4 == 0 ? 2 : 1;
    return is_signed && (i + 2 * r) % 3 == 1 ? -magnitude : magnitude;
  }
  const auto v = static_cast<std::int64_t>((i * 7 + r * 3) % 5);
  return is_signed ? v - 2 : v;
}

std::int64_t combine(std::int64_t a, std::int64_t b, dag::Reduction reduction) {
  switch (reduction) {
    case dag::Reduction::sum: return a + b;
    case dag::Reduction::prod: return a * b;
    case dag::Reduction::min: return a < b ? a : b;
    case dag::Reduction::max: return a < b ? b : a;
    case dag::Reduction::none: break;
  }
  throw std::invalid_argument("test values need a reduction");
}

template <typename T>
void put(std::byte* at, T value) {
  std::memcpy(at, &value, sizeof(T));
}

void encode(dag::DType dtype, std::int64_t v, std::byte* at) {
  assert(v >= -128 && v <= 255 && "test values are small integers");
  switch (dtype) {
    case dag::DType::f32: return put(at, static_cast<float>(v));
    case dag::DType::f64: return put(at, static_cast<double>(v));
    case dag::DType::f16: return put(at, f16_from_float(static_cast<float>(v)));
    case dag::DType::bf16: return put(at, bf16_from_float(static_cast<float>(v)));
    case dag::DType::i8: return put(at, static_cast<std::int8_t>(v));
    case dag::DType::u8: return put(at, static_cast<std::uint8_t>(v));
    case dag::DType::i32: return put(at, static_cast<std::int32_t>(v));
    case dag::DType::i64: return put(at, v);
  }
  throw std::invalid_argument("unknown dtype");
}

// A buffer of `count` elements whose element i is element i % period of `period_values`.
std::vector<std::byte> tile(dag::DType dtype, const std::vector<std::int64_t>& period_values,
                            std::uint64_t count) {
  const std::size_t bytes = dag::dtype_bytes(dtype);
  std::vector<std::byte> period(period_values.size() * bytes);
  for (std::size_t i = 0; i < period_values.size(); ++i) {
    encode(dtype, period_values[i], period.data() + i * bytes);
  }
  std::vector<std::byte> buffer(count * bytes);
  for (std::uint64_t done = 0; done < buffer.size(); done += period.size()) {
    std::memcpy(buffer.data() + done, period.data(), std::min(period.size(), buffer.size() - done));
  }
  return buffer;
}

}  // namespace

std::vector<std::byte> contribution(dag::DType dtype, dag::Reduction reduction, std::uint64_t count,
                                    dag::Rank rank) {
  std::vector<std::int64_t> period(pattern_period);
  for (std::uint64_t i = 0; i < pattern_period; ++i) period[i] = value(dtype, reduction, i, rank);
  return tile(dtype, period, count);
}

std::vector<std::byte> reduced(dag::DType dtype, dag::Reduction reduction, std::uint64_t count,
                               std::uint32_t size) {
  if (size == 0 || size > exact_ranks_max) throw std::invalid_argument("rank count out of range");
  std::vector<std::int64_t> period(pattern_period);
  for (std::uint64_t i = 0; i < pattern_period; ++i) {
    period[i] = value(dtype, reduction, i, 0);
    for (dag::Rank rank = 1; rank < size; ++rank) {
      period[i] = combine(period[i], value(dtype, reduction, i, rank), reduction);
    }
  }
  return tile(dtype, period, count);
}

std::optional<std::uint64_t> first_difference(const std::vector<std::byte>& actual,
                                              const std::vector<std::byte>& expected,
                                              dag::DType dtype) {
  assert(actual.size() == expected.size());
  if (std::memcmp(actual.data(), expected.data(), actual.size()) == 0) return std::nullopt;
  const std::size_t bytes = dag::dtype_bytes(dtype);
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (actual[i] != expected[i]) return i / bytes;
  }
  assert(false && "memcmp and the byte loop disagree");
  return std::nullopt;
}

std::string mismatch_report(const std::vector<std::byte>& actual,
                            const std::vector<std::byte>& expected, dag::DType dtype,
                            const std::string& what) {
  if (actual.size() != expected.size()) {
    return what + ": " + std::to_string(actual.size()) + " bytes, expected " +
           std::to_string(expected.size());
  }
  const std::optional<std::uint64_t> at = first_difference(actual, expected, dtype);
  return at ? what + " differs at element " + std::to_string(*at) : "";
}

}  // namespace ordo::comm::test
