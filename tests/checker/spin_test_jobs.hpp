// Small random jobs for the SPIN agreement test: hand-picked instances test what their author
// thought of; random ones mix pools, priorities, async collectives, waits and main-thread calls
// in ways nobody picked. Every job is valid (dag::validate accepts it) and small enough for both
// checkers to search completely in well under a second.
#pragma once

#include <cstdint>

#include "runtime/dag/program.hpp"

namespace ordo::checker::testing {

// A two-rank job drawn from `seed`: one program for both ranks, or, for some seeds, rank 1 runs
// a variant (one collective op fewer, or other priorities) to reach deadlocks and reorderings.
dag::Job random_small_job(std::uint64_t seed);

}  // namespace ordo::checker::testing
