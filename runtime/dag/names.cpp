#include "runtime/dag/names.hpp"

#include <array>
#include <cstddef>

namespace ordo::dag {
namespace {

// One table per enumeration, indexed by the enumerator's value: the enums are dense from 0, so
// the table's order is the declaration order and both directions use the same strings.
constexpr std::array<std::string_view, 3> var_kind_names = {"tensor", "buffer", "token"};
constexpr std::array<std::string_view, 8> dtype_names = {"f32", "f64", "f16", "bf16",
                                                         "i8",  "u8",  "i32", "i64"};
constexpr std::array<std::string_view, 2> pool_kind_names = {"fifo", "priority"};
constexpr std::array<std::string_view, 4> op_kind_names = {"compute", "copy", "collective",
                                                           "async_collective"};
constexpr std::array<std::string_view, 13> collective_kind_names = {
    "allreduce", "bcast",    "barrier", "reduce", "reduce_scatter", "allgather", "gather",
    "scatter",   "alltoall", "scan",    "exscan", "send",           "recv"};
constexpr std::array<std::string_view, 5> reduction_names = {"none", "sum", "prod", "min", "max"};

static_assert(static_cast<std::size_t>(VarKind::token) + 1 == var_kind_names.size());
static_assert(static_cast<std::size_t>(DType::i64) + 1 == dtype_names.size());
static_assert(static_cast<std::size_t>(PoolKind::priority) + 1 == pool_kind_names.size());
static_assert(static_cast<std::size_t>(OpKind::async_collective) + 1 == op_kind_names.size());
static_assert(static_cast<std::size_t>(CollectiveKind::recv) + 1 == collective_kind_names.size());
static_assert(static_cast<std::size_t>(Reduction::max) + 1 == reduction_names.size());

// An enum value outside its table (only reachable by casting an arbitrary integer) has no
// spelling; "?" keeps messages and dumps printable, and the reader rejects it.
template <typename Enum, std::size_t N>
std::string_view name_in(const std::array<std::string_view, N>& names, Enum value) {
  const auto index = static_cast<std::size_t>(value);
  return index < N ? names[index] : std::string_view("?");
}

template <typename Enum, std::size_t N>
std::optional<Enum> parse_in(const std::array<std::string_view, N>& names, std::string_view text) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == text) {
      return static_cast<Enum>(i);
    }
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(VarKind kind) { return name_in(var_kind_names, kind); }
std::string_view to_string(DType dtype) { return name_in(dtype_names, dtype); }
std::string_view to_string(PoolKind kind) { return name_in(pool_kind_names, kind); }
std::string_view to_string(OpKind kind) { return name_in(op_kind_names, kind); }
std::string_view to_string(CollectiveKind kind) { return name_in(collective_kind_names, kind); }
std::string_view to_string(Reduction reduction) { return name_in(reduction_names, reduction); }

std::optional<VarKind> parse_var_kind(std::string_view text) {
  return parse_in<VarKind>(var_kind_names, text);
}
std::optional<DType> parse_dtype(std::string_view text) {
  return parse_in<DType>(dtype_names, text);
}
std::optional<PoolKind> parse_pool_kind(std::string_view text) {
  return parse_in<PoolKind>(pool_kind_names, text);
}
std::optional<OpKind> parse_op_kind(std::string_view text) {
  return parse_in<OpKind>(op_kind_names, text);
}
std::optional<CollectiveKind> parse_collective_kind(std::string_view text) {
  return parse_in<CollectiveKind>(collective_kind_names, text);
}
std::optional<Reduction> parse_reduction(std::string_view text) {
  return parse_in<Reduction>(reduction_names, text);
}

template <>
std::span<const std::string_view> spellings<VarKind>() {
  return var_kind_names;
}
template <>
std::span<const std::string_view> spellings<DType>() {
  return dtype_names;
}
template <>
std::span<const std::string_view> spellings<PoolKind>() {
  return pool_kind_names;
}
template <>
std::span<const std::string_view> spellings<OpKind>() {
  return op_kind_names;
}
template <>
std::span<const std::string_view> spellings<CollectiveKind>() {
  return collective_kind_names;
}
template <>
std::span<const std::string_view> spellings<Reduction>() {
  return reduction_names;
}

}  // namespace ordo::dag
