// The dump spellings of the IR's enumerations. These strings are part of the dump format
// (docs/dag-format.md), so they never change within a format version.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "runtime/dag/program.hpp"

namespace ordo::dag {

std::string_view to_string(VarKind kind);
std::string_view to_string(DType dtype);
std::string_view to_string(PoolKind kind);
std::string_view to_string(OpKind kind);
std::string_view to_string(CollectiveKind kind);
std::string_view to_string(Reduction reduction);

// Exact, case-sensitive matches of the spellings above; nullopt for anything else.
std::optional<VarKind> parse_var_kind(std::string_view text);
std::optional<DType> parse_dtype(std::string_view text);
std::optional<PoolKind> parse_pool_kind(std::string_view text);
std::optional<OpKind> parse_op_kind(std::string_view text);
std::optional<CollectiveKind> parse_collective_kind(std::string_view text);
std::optional<Reduction> parse_reduction(std::string_view text);

// Every spelling of an enumeration in declaration order, for messages that list the choices.
template <typename Enum>
std::span<const std::string_view> spellings();

template <>
std::span<const std::string_view> spellings<VarKind>();
template <>
std::span<const std::string_view> spellings<DType>();
template <>
std::span<const std::string_view> spellings<PoolKind>();
template <>
std::span<const std::string_view> spellings<OpKind>();
template <>
std::span<const std::string_view> spellings<CollectiveKind>();
template <>
std::span<const std::string_view> spellings<Reduction>();

}  // namespace ordo::dag
