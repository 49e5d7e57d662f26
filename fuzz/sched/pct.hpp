// PCT, probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi, Nagarakatte, "A
// Randomized Scheduler with Probabilistic Guarantees of Finding Bugs", ASPLOS 2010), over the
// legal steps of an exec::ControlledRun.
//
// PCT gives every thread a random priority, always runs the enabled thread of highest priority,
// and at d - 1 steps chosen at random among the k of a run lowers the priority of the thread that
// just ran below every initial one. A bug of depth d (d ordering constraints between n threads)
// is then found with probability at least 1 / (n k^(d-1)) per run, where uniform random walks
// can be exponentially worse: they rarely keep one party starved long enough to reorder it.
//
// The entities that carry priorities here are the parties of a controlled run: each rank's main
// thread, and each op of each rank (its start and its completion, which is how a pool thread
// or an in-flight collective appears to the scheduler). Entities appear as ops are submitted; a new
// one gets a random priority among the initial ones, which gives the same uniform random order as
// drawing a permutation up front. k is the exact length of a finished run (one step per main
// action, two per op), so the change points fall inside the run.
#pragma once

#include <cstdint>

#include "runtime/exec/controlled_run.hpp"

namespace ordo::fuzz {

struct PctOptions {
  std::uint32_t depth = 2;  // d: the run has d - 1 priority change points
  std::uint64_t seed = 0;
  std::uint64_t run_steps = 1;     // k: the length of a finished run
  std::uint64_t steps_max = 1000;  // a run that takes more ends with RunEnd::step_limit
};

// Steps `run` under PCT until it ends or `steps_max` steps, like exec::run_random_schedule.
exec::RunOutcome run_pct(exec::ControlledRun& run, const PctOptions& options);

}  // namespace ordo::fuzz
