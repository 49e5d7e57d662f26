// The allreduces a step needs, issued back to back with plain MPI on one duplicate of the world,
// without the engine: the communication half of a step's lower bound, and the baseline the
// designs' effective bandwidth is held to.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::bench {

// Element counts of every key, in the order a step pushes them (backward order).
std::vector<std::uint64_t> push_order_counts(const networks::Network& network);

class RawAllreduces {
 public:
  // Collective over the world (every rank constructs alike). `fused`: one allreduce of all the
  // keys' elements at once, what a fusion design could reach with no packing cost.
  // `slice_elements` above 0: every key in allreduces of at most that many elements, as the
  // priority design slices them.
  RawAllreduces(const comm::MpiRuntime& runtime, const networks::Network& network,
                bool fused = false, std::uint64_t slice_elements = 0);
  void run();

 private:
  std::vector<std::uint64_t> counts_;
  comm::MpiWorld world_;
  std::vector<float> grads_;
};

}  // namespace ordo::bench
