// The memory behind one rank's vars: tensors and buffers get their bytes, ordering tokens none.
// Sizes come from the program, so an op never touches memory its var did not declare. The main
// thread may add vars (a design declaring a token mid-step) while op functions on pool threads
// read others, so the table is guarded and each var's entry never moves once added. The bytes are
// host memory of the table's own unless a VarMemory places them elsewhere (var_memory.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/dag/program.hpp"
#include "runtime/exec/var_memory.hpp"

namespace ordo::exec {

class Buffers {
 public:
  // Without `memory`, host memory the table owns.
  explicit Buffers(std::shared_ptr<VarMemory> memory = nullptr) : memory_(std::move(memory)) {}

  dag::VarId add(const dag::Var& var);
  std::uint32_t size() const;
  // The reference stays valid for the life of the Buffers.
  const dag::Var& var(dag::VarId id) const { return entry(id).var; }
  // Where the var's bytes are, wherever they are placed: in memory the host may not touch the
  // span only locates them, for a communicator or a device copy; never read it on the host.
  std::span<std::byte> bytes(dag::VarId id);
  std::span<const std::byte> bytes(dag::VarId id) const;

  // Whether the host may read and write the vars' bytes; "host memory" or the VarMemory's words.
  bool host_visible() const { return memory_ == nullptr || memory_->host_visible(); }
  std::string describe_memory() const;
  // Throws std::invalid_argument, naming `who` and the var, unless host_visible().
  void require_host(dag::VarId id, std::string_view who) const;
  // Copies between vars where they are: memcpy in host memory of the table's own, the
  // VarMemory's copy otherwise (var_memory.hpp). With `queue` (a device pool's copy op) placed
  // memory enqueues them there and returns at once; host memory copies them at once, which the
  // queue's marker then follows all the same.
  void copy(std::span<const ByteCopy> copies, engine::DeviceQueue* queue = nullptr);

  // The var's memory as elements of T; the var's bytes must be a multiple of sizeof(T). Both
  // refuse vars the host may not touch.
  template <class T>
  std::span<T> as(dag::VarId id) {
    require_host(id, "Buffers::as");
    std::span<std::byte> b = bytes(id);
    return {reinterpret_cast<T*>(b.data()), b.size() / sizeof(T)};
  }
  template <class T>
  void fill(dag::VarId id, const std::vector<T>& values) {
    require_host(id, "Buffers::fill");
    std::span<std::byte> b = bytes(id);
    std::memcpy(b.data(), values.data(), std::min(b.size(), values.size() * sizeof(T)));
  }

 private:
  struct Entry {
    dag::Var var;
    // Host memory of the table's own: storage aligned for any scalar type, so every dtype can be
    // viewed in place. Placed memory: the block, and storage stays empty.
    std::vector<std::max_align_t> storage;
    std::unique_ptr<VarBlock> block;
    std::byte* data = nullptr;
  };
  // Entries are owned through pointers, so a var's memory is writable even from a const table.
  Entry& entry(dag::VarId id) const;

  std::shared_ptr<VarMemory> memory_;
  mutable std::shared_mutex mutex_;
  std::vector<std::unique_ptr<Entry>> entries_;
};

}  // namespace ordo::exec
