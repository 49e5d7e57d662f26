// One KVStore design on gradients in device memory, for the GPU design bench: an engine and an
// executor whose vars DeviceVarMemory places on this rank's GPU, and one f32 var per key. A
// push and pull goes through the design exactly as a trainer's would; the bench times it
// against the communicator alone on the same device buffers.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/kvstore/kvstore.hpp"

namespace ordo::bench {

class DeviceStore {
 public:
  // Key i has counts[i] f32 elements, zeros. `world` must have step_comms of the design, carry
  // collectives on device pointers (NCCL, staged MPI), and outlive the store.
  DeviceStore(designs::DesignKind kind, comm::World& world, int gpu,
              const std::vector<std::uint64_t>& counts);
  ~DeviceStore();
  DeviceStore(const DeviceStore&) = delete;
  DeviceStore& operator=(const DeviceStore&) = delete;

  // Every key pushed, the last first (the order backward produces gradients), each pulled into
  // the var it was pushed from (in place: no copy), then a wait for all: one step's
  // communication.
  void push_pull();
  // Collective: every element set to this rank + 1, one push_pull, and the count of elements
  // that are not 1 + 2 + ... + ranks (exact in f32 at these rank counts); the keys are zeros
  // again afterwards, so that timed sums stay zero.
  std::uint64_t wrong_sums();

  std::size_t keys() const { return vars_.size(); }
  std::uint64_t count(std::size_t key) const { return counts_.at(key); }
  // Key `key`'s device buffer: what the raw collectives run on.
  void* data(std::size_t key);

 private:
  comm::World& world_;
  engine::Engine engine_;
  exec::Executor executor_;
  std::unique_ptr<kvstore::KVStore> store_;
  std::vector<std::uint64_t> counts_;
  std::vector<dag::VarId> vars_;
};

}  // namespace ordo::bench
