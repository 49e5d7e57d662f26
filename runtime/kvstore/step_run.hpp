// Data-parallel training steps of a network on one rank, live: the step emitter drives a design
// on an executor, backward writes known gradients, and after every step each key's pulled
// gradient is compared, bit for bit, with the sum over ranks that the values were chosen to make
// exact (for a key the sharded design splits: the rank's own block, and the gathered weight, into
// which each rank's update copies its block's sum). With overlapped steps, the weights at the end
// are checked instead (StepRunOptions::overlap). The demo and the MPI tests run this on every
// rank, simulated or real.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::kvstore {

struct StepRunOptions {
  std::uint32_t steps = 3;
  bool include_init = true;
  double compute_time_scale = 1.0;  // simulated device time per second of cost_us
  // Steps not closed by a wait_for_all (StepOptions::overlap). A step's gradients are then
  // overwritten by the next step's backward before anyone could look, so every update adds the
  // pulled sum into the weight instead, and the weights are checked once at the end against the
  // initial weight plus every step's sum: a step whose sum was wrong, or taken at the wrong
  // moment, shows there. step_ms then holds the run's time spread evenly over its steps.
  bool overlap = false;
};

struct StepRunResult {
  std::vector<double> step_ms;       // wall time of each step on this rank
  std::uint64_t keys_checked = 0;    // key-steps compared against the reference
  std::uint64_t keys_wrong = 0;      // key-steps whose pulled gradient differed
  bool weights_initialised = false;  // every key's weight equals rank 0's after init
};

// The gradient element `i` of `key` on `rank` in `step`: small integers, so float sums over up
// to thousands of ranks are exact whatever the order.
float gradient_value(dag::Rank rank, std::int64_t key, std::uint64_t i, std::uint32_t step);

// Runs on the calling thread as this rank's main thread; every rank of `world` must call it with
// the same arguments. When `world` is a rank of `sim`, the rank's executor is registered for
// deadlock detection while it runs. Throws what the runtime throws (a violation, a poisoned wait).
StepRunResult run_steps(const networks::Network& network, const designs::DesignConfig& config,
                        comm::World& world, const StepRunOptions& options,
                        comm::sim::SimWorld* sim = nullptr);

}  // namespace ordo::kvstore
