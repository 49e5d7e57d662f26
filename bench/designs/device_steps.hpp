// Training steps timed as on an accelerator node: compute ops take their simulated device time
// (sleeps, which leave the host cores to communication and copies) and write nothing, so the
// host does only what a real step asks of it: the design's copies, its waits and the MPI calls.
// run_steps also writes every gradient element on the host to check the sums, which on this
// benchmark's networks costs more CPU time than the allreduces themselves and would hide the
// overlap being measured; the sums are checked separately (OverlapRow::keys_wrong).
#pragma once

#include <cstdint>

#include "runtime/comm/communicator.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/designs/step_emitter.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/kvstore/step_run.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::bench {

// run_steps (which writes known gradients and checks every sum) for two steps after the weights'
// broadcast, with no simulated time: how the benches check that a design's sums are exact.
kvstore::StepRunOptions checked_steps();

class DeviceSteps {
 public:
  // Collective over `world` (every rank constructs alike; `world` may be an AloneWorld, to run
  // the step without communication): broadcasts the weights. `world` must have
  // step_comms(config) and outlive this object. With `trace`, the engine logs its ops and waits
  // there from the first (a timeline, runtime/flight/timeline_log.hpp).
  // `compute_time_scale` 0 leaves the compute ops' sleeps out (a step of communication alone).
  DeviceSteps(const networks::Network& network, const designs::DesignConfig& config,
              comm::World& world, engine::OpTrace* trace = nullptr,
              double compute_time_scale = 1.0);
  ~DeviceSteps();
  DeviceSteps(const DeviceSteps&) = delete;
  DeviceSteps& operator=(const DeviceSteps&) = delete;

  // One training step; returns when every op of it completed on this rank.
  void step();
  // `n` steps back to back, only the last closed by a wait_for_all (StepOptions::overlap): each
  // step's communication runs on into the next step's forward.
  void overlapped_steps(std::uint32_t n);

 private:
  engine::Engine engine_;
  exec::Executor executor_;
  designs::StepEmitter emitter_;
  std::uint32_t steps_ = 0;
};

}  // namespace ordo::bench
