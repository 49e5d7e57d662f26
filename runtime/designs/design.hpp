// A KVStore design: what init, push and pull of one key put on the main thread and into the
// engine (docs/semantics.md §7 and the paper's Fig. 4-12). One object per rank and step program;
// it keeps the state a design carries between keys (concom's outstanding count, depcha's chain).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/dag/program.hpp"
#include "runtime/dag/program_sink.hpp"
#include "runtime/designs/design_config.hpp"

namespace ordo::designs {

// The vars of one key: the gradient the backward pass writes, the communication buffer, the
// weight the update writes. All three hold `count` elements of `dtype`. With in-place buffers
// (BufferMode::in_place) `buf` is the same var as `grad`: the sum is formed in the gradient.
struct KeyVars {
  std::int64_t key = 0;
  std::string name;
  dag::VarId grad = 0;
  dag::VarId buf = 0;
  dag::VarId weight = 0;
  std::uint64_t count = 0;
  dag::DType dtype = dag::DType::f32;
};

// What the step's SGD update of a whole key costs, for the simulators (cost_us of its op).
double update_cost_us(const KeyVars& k);

class Design {
 public:
  // `rank`: the world rank whose program this is; only hierarchical's program depends on it.
  Design(const DesignConfig& config, dag::ProgramSink& main, dag::Rank rank);
  virtual ~Design() = default;
  // Broadcast the key's initial weight from rank 0, the same way in every design: the safe init
  // or the paper's Fig. 4, as configured.
  void init(const KeyVars& k);
  // Sum the key's gradient over all ranks into its buffer. Returns the keys whose sums the ops
  // submitted so far form, in push order, so that they may be pulled now: the key itself in every
  // design but fused, which holds keys back until their bucket is closed.
  virtual std::vector<KeyVars> push(const KeyVars& k) = 0;
  // Bring the summed buffer into the gradient: a copy, or nothing when they are one var. fused
  // first closes the open bucket if it holds the key.
  virtual void pull(const KeyVars& k);
  // A barrier of every rank on the world communicator, issued by the main thread.
  void barrier();
  // Prefix for the names of the ops submitted from now on (the step they belong to).
  void set_prefix(std::string prefix) { prefix_ = std::move(prefix); }
  // The step's last key is pushed; its wait_for_all comes next. Whatever a design keeps from key
  // to key must end here, so that every step is the same program: the checker verifies one step,
  // and that proves a run of many only because each step starts from the state the verified one
  // started from (docs/train.md).
  // Submits what the design holds back (fused's open bucket), so that every push so far is on
  // its way; returns those keys, as push does.
  virtual std::vector<KeyVars> flush() { return {}; }
  // The same at the end of a step, where whatever a design keeps from key to key also ends.
  virtual std::vector<KeyVars> end_step() { return flush(); }

  // Throws std::invalid_argument for a bad configuration.
  static std::unique_ptr<Design> create(const DesignConfig& config, dag::ProgramSink& main,
                                        dag::Rank rank);

 protected:
  const DesignConfig& config() const { return config_; }
  dag::ProgramSink& main() { return main_; }
  dag::Rank rank() const { return rank_; }
  // Building blocks shared by the designs.
  dag::VarId add_token(const std::string& name);
  std::string op_name(const char* what, const KeyVars& k) const {
    return prefix_ + what + "." + k.name;
  }
  const std::string& op_prefix() const { return prefix_; }
  void submit_copy(const std::string& name, dag::VarId from, dag::VarId to);
  // An op that writes `var` and does nothing (a compute op of no cost on the copy pool): it runs
  // only after every op submitted before it that reads or writes `var`.
  void submit_fence(const std::string& name, dag::VarId var);
  // Whether the key's buffer is its gradient; throws std::logic_error when that disagrees with
  // the configured buffer mode (the key's vars were declared for the other mode).
  bool in_place(const KeyVars& k) const;
  // The start of every push but naive's: the paper's copy of the gradient into the buffer. In
  // place there is nothing to copy; but where the main thread then waits for the buffer
  // (`main_waits`), a fence on the gradient stands in for the copy, so the wait is for an op the
  // design submitted (and, for funnel's main-thread allreduce, for every earlier reader too).
  void push_into_buffer(const KeyVars& k, bool main_waits);
  dag::Collective allreduce(const KeyVars& k, dag::CommId comm) const;
  dag::Op collective_op(const std::string& name, const dag::Collective& c,
                        std::vector<dag::VarId> reads, std::vector<dag::VarId> writes) const;

 private:
  DesignConfig config_;
  dag::ProgramSink& main_;
  dag::Rank rank_;
  std::string prefix_;
  std::optional<dag::VarId> init_chain_;  // the token the safe init's broadcasts all write
};

}  // namespace ordo::designs
