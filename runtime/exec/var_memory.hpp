// Where an executor's vars keep their bytes. By default in host memory that Buffers owns; given
// a VarMemory, wherever it allocates, device memory included. The collective path only computes
// addresses inside a var (runtime/exec/op_bodies.hpp), so a communicator that takes device
// pointers (NCCL, staged MPI, CUDA-aware MPI) reduces device vars as the MPI backend reduces host
// ones. Copy ops (copy buffers, fused's buckets, a pull into another var, an out-of-place
// collective) move bytes with the memory's own copy, so they run where the vars are: memcpy on
// the host, a device-to-device copy on a GPU. What reads or writes a var's bytes on the host
// (a compute hook that says it does, Buffers::as and fill) asks host_visible() first and refuses
// memory the host may not touch, rather than crash on it. The CUDA allocator lives in
// runtime/exec/device (device_var_memory.hpp), so that this library needs no CUDA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace ordo::engine {
class DeviceQueue;
}

namespace ordo::exec {

// One var's bytes, owned: freed when the block goes.
class VarBlock {
 public:
  virtual ~VarBlock() = default;
  virtual std::byte* data() const = 0;
};

// `bytes` bytes from `from` to `to`; both inside blocks of one memory, not overlapping.
struct ByteCopy {
  std::byte* to = nullptr;
  const std::byte* from = nullptr;
  std::size_t bytes = 0;
};

class VarMemory {
 public:
  virtual ~VarMemory() = default;
  // At least `bytes` (> 0) bytes, zeroed as a host var's are, aligned for any dtype. Called by
  // the thread that adds the var (the main thread). Throws when the memory cannot be had.
  virtual std::unique_ptr<VarBlock> allocate(std::uint64_t bytes) = 0;
  // Whether host code may read and write the bytes (memcpy, spans of elements).
  virtual bool host_visible() const = 0;
  // What the memory is, for errors: "device memory of GPU 0".
  virtual std::string describe() const = 0;
  // The CUDA device the bytes are on, or none for memory that is not a GPU's: what a user of the
  // vars checks against the device it computes on (train_rank against TrainOptions::device).
  virtual std::optional<int> gpu() const = 0;
  // Every copy, in order, returning once the last has landed: a copy op's written vars hold
  // their values when the op completes, as the engine's rules assume. Called from pool threads,
  // several at once. Throws when a copy fails.
  virtual void copy(std::span<const ByteCopy> copies) = 0;
  // The same copies put on `queue` behind the work already there, returning before they have
  // run: for the copy ops of a device pool on that queue (Executor::use_device_queue), which
  // complete at the marker recorded behind them. Throws std::invalid_argument for a queue this
  // memory cannot put copies on.
  virtual void enqueue_copy(std::span<const ByteCopy> copies, engine::DeviceQueue& queue) = 0;
};

}  // namespace ordo::exec
