#include "runtime/exec/buffers.hpp"

#include <stdexcept>

namespace ordo::exec {

namespace {
constexpr std::uint64_t var_bytes_max = std::uint64_t{16} << 30;
}

dag::VarId Buffers::add(const dag::Var& var) {
  if (var.bytes > var_bytes_max) {
    throw std::invalid_argument("var '" + var.name + "' declares " + std::to_string(var.bytes) +
                                " bytes, more than the " + std::to_string(var_bytes_max) +
                                " one var may hold");
  }
  const std::uint64_t bytes = var.kind == dag::VarKind::token ? 0 : var.bytes;
  vars_.push_back(var);
  storage_.emplace_back((bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
  return static_cast<dag::VarId>(vars_.size() - 1);
}

std::span<std::byte> Buffers::bytes(dag::VarId id) {
  const dag::Var& v = vars_.at(id);
  if (v.kind == dag::VarKind::token) return {};
  return {reinterpret_cast<std::byte*>(storage_[id].data()), v.bytes};
}

std::span<const std::byte> Buffers::bytes(dag::VarId id) const {
  const dag::Var& v = vars_.at(id);
  if (v.kind == dag::VarKind::token) return {};
  return {reinterpret_cast<const std::byte*>(storage_[id].data()), v.bytes};
}

}  // namespace ordo::exec
