// A fake "device" memory for the tests that run where there is no GPU: an exec::VarMemory the host
// may not touch (host_visible() is false, so everything that reads vars on the host must refuse
// it), whose blocks are host memory underneath, so that the simulated world can still reduce
// through the pointers it is handed (as NCCL would on a GPU) and CPU tensors can view them (as
// CUDA tensors view device memory). Its copies count the bytes they move, so a test can see that
// copy ops went through the placement rather than the host's memcpy, and whether at once or on a
// device pool's queue.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/engine/host_device_queue.hpp"
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
  // No GPU's by default, as the CPU tests compute on the CPU; a test sets one to be refused.
  std::optional<int> gpu() const override { return gpu_index; }
  std::optional<int> gpu_index;
  void copy(std::span<const exec::ByteCopy> copies) override {
    for (const exec::ByteCopy& c : copies) {
      std::memmove(c.to, c.from, c.bytes);
      bytes_copied += c.bytes;
    }
  }
  // On the host stand-in for a stream, as the CUDA memory puts them on its copy stream.
  void enqueue_copy(std::span<const exec::ByteCopy> copies, engine::DeviceQueue& queue) override {
    auto* const host = dynamic_cast<engine::HostDeviceQueue*>(&queue);
    if (host == nullptr) throw std::invalid_argument("fake device copies need a HostDeviceQueue");
    host->enqueue([this, pieces = std::vector<exec::ByteCopy>(copies.begin(), copies.end())] {
      for (const exec::ByteCopy& c : pieces) {
        std::memmove(c.to, c.from, c.bytes);
        bytes_enqueued += c.bytes;
      }
    });
  }

  std::atomic<std::uint32_t> allocations{0};
  std::atomic<std::uint64_t> bytes_copied{0};    // by copy(), at once
  std::atomic<std::uint64_t> bytes_enqueued{0};  // by enqueue_copy(), on the queue's thread

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
