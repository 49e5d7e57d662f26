// The copies a staged collective makes between device memory and host memory, as an interface:
// the pipeline (pipeline.hpp) is written against it and knows nothing of CUDA, so it builds and
// is tested everywhere, on a stager that copies host memory on a thread of its own
// (host_stager.hpp); the CUDA stager (runtime/comm/device/cuda_stager.hpp) copies on streams.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ordo::comm {

class Stager {
 public:
  // One copy in flight, as enqueued.
  using Copy = std::uint64_t;

  virtual ~Stager() = default;

  // Host memory of at least `bytes` for the copies to go through (pinned where the device needs
  // it), owned by the stager. Valid until the next call of host() or the stager's end; call it
  // only with no copy in flight.
  virtual void* host(std::size_t bytes) = 0;

  // Enqueue a copy of `bytes` and return at once. Copies in one direction run in the order they
  // were enqueued; the two directions may run at the same time.
  virtual Copy to_host(const void* device, void* host, std::size_t bytes) = 0;
  virtual Copy to_device(const void* host, void* device, std::size_t bytes) = 0;

  // Returns once `copy` has landed. Every copy is waited for exactly once, in any order.
  virtual void wait(Copy copy) = 0;
};

}  // namespace ordo::comm
