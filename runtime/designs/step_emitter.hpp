// Turns a network and a design into one training step on a dag::ProgramSink: forward ops in layer
// order, the loss, backward ops in reverse, then per key (in the order backward produces the
// gradients) the design's push, then as the design says which sums are on their way, their pulls
// and weight updates, and a final wait_for_all. The
// same emitter feeds the program writer (dumps, checker) and the runtime executor.
//
// With prefetch the input pipeline is in the program too: init loads the first batch into
// "data.next" (op "init.data.load" on the data pool); each step first takes it ("data.take": reads
// data.next, writes data) and then loads the next step's ("data.load"), which runs on the data
// pool while the step's forward and backward run on the compute pool. The engine orders the two
// by their vars (the load writes what the take read), so no step sees a batch half loaded.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/dag/program_sink.hpp"
#include "runtime/designs/design.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::designs {

class StepEmitter {
 public:
  // Declares every var of the network on `main`; throws std::invalid_argument for a bad network
  // or configuration. `rank`: the world rank whose program this is (Design::create).
  StepEmitter(const networks::Network& network, const DesignConfig& config, dag::ProgramSink& main,
              dag::Rank rank);

  // Broadcast every key's weight from rank 0, then wait for all.
  void emit_init();
  // One training step; op names are prefixed with `prefix` (empty for a single step). With
  // `close` the step ends in a wait_for_all; without it the main thread goes on at once, and the
  // next step's ops wait only for the vars they touch (StepOptions::overlap).
  void emit_step(const std::string& prefix, bool close = true);

  const std::vector<KeyVars>& keys() const { return keys_; }
  // Keys in the order backward produces their gradients (the order push is called in).
  const std::vector<std::uint32_t>& push_order() const { return push_order_; }
  Design& design() { return *design_; }

 private:
  // In place, a key's buffer is its gradient and no buffer var is declared.
  void declare_vars(BufferMode buffers);
  void emit_forward(const std::string& prefix);
  void emit_backward(const std::string& prefix);
  // Pull each summed key and submit its weight update.
  void emit_pulls(const std::string& prefix, const std::vector<KeyVars>& summed);

  const networks::Network& network_;
  dag::ProgramSink& main_;
  std::unique_ptr<Design> design_;
  void emit_load(const std::string& prefix);

  bool prefetch_ = false;
  dag::VarId data_ = 0;
  dag::VarId data_next_ = 0;                            // prefetch only
  std::vector<dag::VarId> act_;                         // per layer: its output
  std::vector<dag::VarId> dact_;                        // per layer: the gradient of its output
  std::vector<std::vector<std::uint32_t>> layer_keys_;  // per layer: indices into keys_
  std::vector<KeyVars> keys_;
  std::vector<std::uint32_t> push_order_;
};

}  // namespace ordo::designs
