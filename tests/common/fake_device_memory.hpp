// A fake "device" memory for the tests that run where there is no GPU: an exec::VarMemory the host
// may not touch (host_visible() is false, so everything that reads vars on the host must refuse
// it), whose blocks are host memory underneath, so that the simulated world can still reduce
// through the pointers it is handed (as NCCL would on a GPU) and CPU tensors can view them (as
// CUDA tensors view device memory). Its copy counts the bytes it moves, so a test can see that
// copy ops went through the placement rather than the host's memcpy.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/exec/var_memory.hpp"

namespace ordo::test {

class FakeDeviceMemory final : public exec::VarMemory {
 public:
  std::unique_ptr<exec::VarBlock> allocate(std::uint64_t bytes) override {
    ++allocations;
    return std::make_unique<Block>(bytes);
  }
  bool host_visible() const override { return false; }
  std::string describe() const override { return "fake device memory"; }
  void copy(std::span<const exec::ByteCopy> copies) override {
    for (const exec::ByteCopy& c : copies) {
      std::memmove(c.to, c.from, c.bytes);
      bytes_copied += c.bytes;
    }
  }

  std::atomic<std::uint32_t> allocations{0};
  std::atomic<std::uint64_t> bytes_copied{0};

 private:
  class Block final : public exec::VarBlock {
   public:
    // Whole 16-byte units, zeroed: aligned for any dtype, as a device allocation is.
    explicit Block(std::uint64_t bytes) : storage_((bytes + 15) / 16) {}
    std::byte* data() const override {
      return reinterpret_cast<std::byte*>(const_cast<Unit*>(storage_.data()));
    }

   private:
    struct alignas(16) Unit {
      std::byte b[16];
    };
    std::vector<Unit> storage_;
  };
};

}  // namespace ordo::test
