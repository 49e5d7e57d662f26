// One rank's live training steps with its memory left open for inspection: what run_steps does
// (a design driven by the step emitter on an executor, backward ops writing gradient_value), but
// the tests read every key's bytes after init and after each step instead of a count of wrong
// keys.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/designs/step_emitter.hpp"

namespace ordo::kvstore::mpi_test {

class StepRig {
 public:
  // `world` must have step_comms(config) and outlive the rig. Every rank builds its rig alike.
  StepRig(const networks::Network& network, const designs::DesignConfig& config, comm::World& world);

  // Writes this rank's weight_pattern into every weight and broadcasts rank 0's (the design's
  // init); returns when every broadcast completed.
  void init();
  // One training step; backward writes gradient_value(rank, key, i, step) into each gradient.
  void step(std::uint32_t step);

  const std::vector<designs::KeyVars>& keys() const { return emitter_.keys(); }
  std::span<const std::byte> bytes(dag::VarId var) {
    return std::as_const(executor_.buffers()).bytes(var);
  }

 private:
  // Read by the compute threads: the map is complete before the first op is submitted and the step
  // is set before each step's ops are, and the engine's submission orders both before any op runs.
  struct Gradients {
    std::unordered_map<dag::VarId, std::int64_t> key_of_grad;
    std::atomic<std::uint32_t> step{0};
    void write(dag::Rank rank, const dag::Op& op, exec::Buffers& buffers) const;
  };

  comm::World& world_;
  engine::Engine engine_;
  std::shared_ptr<Gradients> gradients_;
  exec::Executor executor_;
  designs::StepEmitter emitter_;
};

}  // namespace ordo::kvstore::mpi_test
