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

// Hand-written two-rank jobs for the transition and agreement rules (docs/semantics.md, S3 and C2).

// Both ranks submit two async allreduces of different keys on one communicator to a two-thread
// FIFO pool. Both threads can claim before either issues, so the issues can leave the pool's
// order and a rank can issue the second key first: P1 under S3, although neither call blocks
// (no P2).
dag::Job async_pair_two_threads();

// Rank 0 runs an allreduce as a blocking collective op, rank 1 the same allreduce as an async
// one: the first calls of the communicator differ only in blocking, which MPI never matches (P1).
dag::Job blocking_meets_non_blocking();
// Non-blocking reduces that name different roots on the two ranks: a mismatch on the root alone.
dag::Job reduce_roots_differ();

// Rank 0 calls a barrier with key 0 and dtype f32, rank 1 one with key 1 and dtype f64: a
// barrier's key and dtype are labels MPI never sees, so the two agree (safe).
dag::Job barriers_of_different_keys();

}  // namespace ordo::checker::testing
