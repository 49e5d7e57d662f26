// A discrete-event run of one rank's program under the engine rules, with time: compute and copy
// ops take their cost, collectives what the link model says at the given rank count, and every
// other transition (the main thread's actions, claims, issues) none. It drives the checker's own
// transition system (checker/system), so the order ops are readied, claimed and completed in is
// the one the runtime and the checker share; only when a completion happens is the cost model's.
//
// The job runs as a single rank standing for all of them: the designs' step programs are SPMD and
// every rank issues the same collectives at about the same time, so a collective is taken to end
// its duration after this rank issues it. Collectives share one link: one issued while another
// is on the wire starts when that one ends (a rank's network port moves one message at a time).
// A communicator with a member list counts its members, not the world's ranks; with nodes
// (`node_ranks`), one whose members all sit on one node uses the node's own link instead, with
// its own queue: hierarchical's reduces and bcasts stay in the node's memory while its leaders'
// allreduces cross the network. Hierarchical is timed on a node leader's program, the one with
// every phase.
#pragma once

#include <cstdint>

#include "checker/timing/link_model.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::checker::timing {

struct TimedOptions {
  std::uint32_t ranks = 2;  // the rank count the collectives' durations are for
  LinkModel link;
  // Multiplies every compute op's cost_us (the network's per-layer estimates) but the weight
  // updates': a faster or slower device.
  double compute_scale = 1.0;
  std::uint64_t transitions_max = 50'000'000;
  // Ranks per node, node n holding ranks n * node_ranks onwards; 0: no nodes, one link for all.
  std::uint32_t node_ranks = 0;
  LinkModel node_link{1.0, 10'000.0};  // within a node: shared memory, about 80 Gbit/s
};

struct TimedResult {
  double total_us = 0.0;    // from the first action to the last op's completion
  double compute_us = 0.0;  // summed cost of the compute and copy ops run
  double comm_us = 0.0;     // time the link was busy
  std::uint64_t transitions = 0;
};

// Throws std::invalid_argument for a job of several programs or bad options, and std::runtime_error when the run stops before its
// end (a wait nothing can satisfy) or exceeds transitions_max.
TimedResult timed_run(const dag::Job& job, const TimedOptions& options);

}  // namespace ordo::checker::timing
