// The memory behind one rank's vars: tensors and buffers get their bytes, ordering tokens none.
// Sizes come from the program, so an op never touches memory its var did not declare. The main
// thread may add vars (a design declaring a token mid-step) while op functions on pool threads
// read others, so the table is guarded and each var's entry never moves once added.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <shared_mutex>
#include <span>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::exec {

class Buffers {
 public:
  dag::VarId add(const dag::Var& var);
  std::uint32_t size() const;
  // The reference stays valid for the life of the Buffers.
  const dag::Var& var(dag::VarId id) const { return entry(id).var; }
  std::span<std::byte> bytes(dag::VarId id);
  std::span<const std::byte> bytes(dag::VarId id) const;

  // The var's memory as elements of T; the var's bytes must be a multiple of sizeof(T).
  template <class T>
  std::span<T> as(dag::VarId id) {
    std::span<std::byte> b = bytes(id);
    return {reinterpret_cast<T*>(b.data()), b.size() / sizeof(T)};
  }
  template <class T>
  void fill(dag::VarId id, const std::vector<T>& values) {
    std::span<std::byte> b = bytes(id);
    std::memcpy(b.data(), values.data(), std::min(b.size(), values.size() * sizeof(T)));
  }

 private:
  struct Entry {
    dag::Var var;
    // Storage aligned for any scalar type, so every dtype can be viewed in place.
    std::vector<std::max_align_t> storage;
  };
  // Entries are owned through pointers, so a var's memory is writable even from a const table.
  Entry& entry(dag::VarId id) const;

  mutable std::shared_mutex mutex_;
  std::vector<std::unique_ptr<Entry>> entries_;
};

}  // namespace ordo::exec
