// PCT, probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi, Nagarakatte, "A
// Randomized Scheduler with Probabilistic Guarantees of Finding Bugs", ASPLOS 2010), over the
// legal transitions of an exec::ControlledRun.
//
// PCT gives every thread a random priority, always runs the enabled thread of highest priority, and
// at d - 1 transitions chosen at random among the k of a run lowers the priority of the thread that
// just ran below every initial one. A bug of depth d (d ordering constraints between n threads) is
// then found with probability at least 1 / (n k^(d-1)) per run, where uniform random walks can be
// exponentially worse: they rarely keep one party starved long enough to reorder it.
//
// The entities that carry priorities here are the parties of a controlled run: each rank's main
// thread, and each op of each rank (its start and its completion, which is how a pool thread
// or an in-flight collective appears to the scheduler). Entities appear as ops are submitted; a new
// one gets a random priority among the initial ones, which gives the same uniform random order as
// drawing a permutation up front. k is the length of a finished run (finished_run_transitions
// below), so the change points fall inside the run.
//
// It lives with the runtime, not with the fuzz properties, because `ordo fuzz` runs it on a user's
// job as well.
#pragma once

#include <cstdint>

#include "runtime/dag/program.hpp"
#include "runtime/exec/controlled_run.hpp"

namespace ordo::exec {

struct PctOptions {
  std::uint32_t depth = 2;  // d: the run has d - 1 priority change points
  std::uint64_t seed = 0;
  std::uint64_t run_transitions = 1;     // k: the length of a finished run
  std::uint64_t transitions_max = 1000;  // a longer run ends with RunEnd::transition_limit
};

// Drives `run` under PCT until it ends or `transitions_max` transitions, like
// run_random_schedule.
RunOutcome run_pct(ControlledRun& run, const PctOptions& options);

// PCT's k for `job` at `ranks`, the length of every finished run: one transition per main
// action, a claim and a completion per op, and an issue per collective op, on every rank.
std::uint64_t finished_run_transitions(const dag::Job& job, std::uint32_t ranks);

}  // namespace ordo::exec
