// Where an executor's vars keep their bytes. By default in host memory that Buffers owns; given
// a VarMemory, wherever it allocates, device memory included. The collective path only computes
// addresses inside a var (runtime/exec/op_bodies.hpp), so a communicator that takes device
// pointers (NCCL, staged MPI, CUDA-aware MPI) reduces device vars as the MPI backend reduces host
// ones. What reads or writes a var's bytes on the host (copy ops, compute hooks, Buffers::as and
// fill) asks host_visible() first and refuses memory the host may not touch, rather than crash on
// it. The CUDA allocator lives in runtime/device (device_var_memory.hpp), so that this library
// needs no CUDA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace ordo::exec {

// One var's bytes, owned: freed when the block goes.
class VarBlock {
 public:
  virtual ~VarBlock() = default;
  virtual std::byte* data() const = 0;
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
};

}  // namespace ordo::exec
