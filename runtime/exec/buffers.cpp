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
  if (memory_ != nullptr && bytes > 0) {
    e->block = memory_->allocate(bytes);
    e->data = e->block->data();
  } else {
    e->storage.resize((bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
    e->data = reinterpret_cast<std::byte*>(e->storage.data());
  }
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
  return {e.data, e.var.bytes};
}

std::span<const std::byte> Buffers::bytes(dag::VarId id) const {
  const Entry& e = entry(id);
  if (e.var.kind == dag::VarKind::token) return {};
  return {e.data, e.var.bytes};
}

void Buffers::copy(std::span<const ByteCopy> copies, engine::DeviceQueue* queue) {
  if (memory_ != nullptr && queue != nullptr) return memory_->enqueue_copy(copies, *queue);
  if (memory_ != nullptr) return memory_->copy(copies);
  for (const ByteCopy& c : copies) {
    if (c.bytes > 0) std::memcpy(c.to, c.from, c.bytes);
  }
}

std::string Buffers::describe_memory() const {
  return memory_ == nullptr ? std::string("host memory") : memory_->describe();
}

void Buffers::require_host(dag::VarId id, std::string_view who) const {
  if (host_visible()) return;
  throw std::invalid_argument(std::string(who) + " of var '" + var(id).name +
                              "': its bytes are in " + describe_memory() +
                              ", which the host may not touch; expected a var in host-visible "
                              "memory (a device var is written by a device copy to the address "
                              "bytes() gives)");
}

}  // namespace ordo::exec
