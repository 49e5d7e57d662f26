#include "runtime/exec/buffers.hpp"

#include <mutex>
#include <stdexcept>
#include <string>

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
  auto e = std::make_unique<Entry>();
  e->var = var;
  e->storage.resize((bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
  std::unique_lock lock(mutex_);
  entries_.push_back(std::move(e));
  return static_cast<dag::VarId>(entries_.size() - 1);
}

std::uint32_t Buffers::size() const {
  std::shared_lock lock(mutex_);
  return static_cast<std::uint32_t>(entries_.size());
}

Buffers::Entry& Buffers::entry(dag::VarId id) const {
  std::shared_lock lock(mutex_);
  if (id >= entries_.size()) {
    throw std::out_of_range("no var " + std::to_string(id) + " in this rank's buffers");
  }
  return *entries_[id];
}

std::span<std::byte> Buffers::bytes(dag::VarId id) {
  Entry& e = entry(id);
  if (e.var.kind == dag::VarKind::token) return {};
  return {reinterpret_cast<std::byte*>(e.storage.data()), e.var.bytes};
}

std::span<const std::byte> Buffers::bytes(dag::VarId id) const {
  const Entry& e = entry(id);
  if (e.var.kind == dag::VarKind::token) return {};
  return {reinterpret_cast<const std::byte*>(e.storage.data()), e.var.bytes};
}

}  // namespace ordo::exec
