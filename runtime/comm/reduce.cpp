#include "runtime/comm/reduce.hpp"

#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "runtime/comm/half.hpp"

namespace ordo::comm {
namespace {

// Integer arithmetic goes through the unsigned type, where wrap-around is defined.
template <typename T>
T combine(T a, T b, dag::Reduction reduction) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    const auto ua = static_cast<U>(a);
    const auto ub = static_cast<U>(b);
    switch (reduction) {
      case dag::Reduction::sum: return static_cast<T>(static_cast<U>(ua + ub));
      case dag::Reduction::prod: return static_cast<T>(static_cast<U>(ua * ub));
      default: break;
    }
  } else {
    switch (reduction) {
      case dag::Reduction::sum: return a + b;
      case dag::Reduction::prod: return a * b;
      default: break;
    }
  }
  return reduction == dag::Reduction::min ? (b < a ? b : a) : (a < b ? b : a);
}

// Buffers are bytes from anywhere (MPI hands over void*), so elements are copied, not
// dereferenced through a cast pointer that might be misaligned.
template <typename T>
void reduce_native(std::byte* inout, const std::byte* in, std::uint64_t count,
                   dag::Reduction reduction) {
  for (std::uint64_t i = 0; i < count; ++i) {
    T a;
    T b;
    std::memcpy(&a, inout + i * sizeof(T), sizeof(T));
    std::memcpy(&b, in + i * sizeof(T), sizeof(T));
    const T result = combine(a, b, reduction);
    std::memcpy(inout + i * sizeof(T), &result, sizeof(T));
  }
}

template <float (*widen)(std::uint16_t), std::uint16_t (*narrow)(float)>
void reduce_16bit(std::byte* inout, const std::byte* in, std::uint64_t count,
                  dag::Reduction reduction) {
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint16_t a;
    std::uint16_t b;
    std::memcpy(&a, inout + i * 2, 2);
    std::memcpy(&b, in + i * 2, 2);
    const std::uint16_t result = narrow(combine(widen(a), widen(b), reduction));
    std::memcpy(inout + i * 2, &result, 2);
  }
}

}  // namespace

void reduce_into(void* inout, const void* in, std::uint64_t count, dag::DType dtype,
                 dag::Reduction reduction) {
  switch (reduction) {
    case dag::Reduction::sum:
    case dag::Reduction::prod:
    case dag::Reduction::min:
    case dag::Reduction::max: break;
    default:
      throw std::invalid_argument("reduce_into: reduction " +
                                  std::to_string(static_cast<int>(reduction)) +
                                  " is not sum, prod, min or max");
  }
  auto* out = static_cast<std::byte*>(inout);
  const auto* src = static_cast<const std::byte*>(in);
  switch (dtype) {
    case dag::DType::f32: return reduce_native<float>(out, src, count, reduction);
    case dag::DType::f64: return reduce_native<double>(out, src, count, reduction);
    case dag::DType::f16:
      return reduce_16bit<float_from_f16, f16_from_float>(out, src, count, reduction);
    case dag::DType::bf16:
      return reduce_16bit<float_from_bf16, bf16_from_float>(out, src, count, reduction);
    case dag::DType::i8: return reduce_native<std::int8_t>(out, src, count, reduction);
    case dag::DType::u8: return reduce_native<std::uint8_t>(out, src, count, reduction);
    case dag::DType::i32: return reduce_native<std::int32_t>(out, src, count, reduction);
    case dag::DType::i64: return reduce_native<std::int64_t>(out, src, count, reduction);
  }
  throw std::invalid_argument("reduce_into: unknown dtype " +
                              std::to_string(static_cast<int>(dtype)));
}

}  // namespace ordo::comm
