// Collectives on device buffers over an MPI that takes host memory only: each collective is
// staged through host memory by a Stager and carried out by the host communicator it wraps
// (pipeline.hpp), one at a time in issue order (ordered_worker.hpp). What MPI matches is the host
// communicator's calls, one per chunk, so staged collectives match exactly as the wrapped
// communicator's own would: by issue order, blocking with blocking.
#pragma once

#include <cstddef>
#include <memory>

#include "runtime/comm/staged/ordered_worker.hpp"
#include "runtime/comm/staged/stager.hpp"
#include "runtime/comm/wrapped_world.hpp"

namespace ordo::comm {

struct StagedOptions {
  // Bytes per pipelined chunk (at least one element), the same on every member. 4 MiB: a copy of
  // 4 MiB over PCIe (12-25 GB/s) takes 170-350 us, far above the ~10 us a copy or an MPI call
  // costs to start, so chunks move at full bandwidth; filling and draining the pipeline costs one
  // chunk's copies, well under a millisecond, against the tens of milliseconds a 64 MiB gradient
  // takes; and three slots of it are 12 MiB of pinned memory per communicator. Much smaller
  // chunks pay the per-call costs on every chunk; much larger ones lengthen fill and drain and
  // pin more memory.
  std::size_t chunk_bytes = std::size_t{4} << 20;
};

class StagedCommunicator final : public WrappedCommunicator {
 public:
  // `host` carries the collectives on host memory and must outlive this object; the stager is
  // this communicator's own. Throws std::invalid_argument for a chunk of 0 bytes.
  StagedCommunicator(Communicator& host, std::unique_ptr<Stager> stager,
                     StagedOptions options = {});
  // Runs the collectives queued, then returns.
  ~StagedCommunicator() override = default;

  // `buffer` is device memory, whose producers must have completed before the call (the
  // engine's events guarantee it). The checks of check_call throw std::invalid_argument at once
  // (to `done` for the callback forms); the host's and the stager's errors come back unchanged.
  void call(const Call& call, void* buffer) override;
  std::unique_ptr<Request> start(const Call& call, void* buffer) override;
  // Both return at once; `done` runs on this communicator's worker thread.
  void call_then(const Call& call, void* buffer, Done done) override;
  void start_then(const Call& call, void* buffer, Done done) override;

  std::size_t chunk_bytes() const { return chunk_bytes_; }

 private:
  void check(const Call& call, const void* buffer) const;

  std::unique_ptr<Stager> stager_;
  std::size_t chunk_bytes_;
  // Last, so it is destroyed first: queued collectives end while the stager is still there.
  OrderedWorker worker_;
};

}  // namespace ordo::comm
