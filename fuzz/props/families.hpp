// The families the properties draw from, as RapidCheck generators over the fuzz library's plain
// generators (fuzz/lib/generated_jobs.hpp, raw_program.hpp, racy_jobs.hpp), the same ones `ordo
// fuzz --generate` draws from a seed. Each family draws through a tape of choices
// (fuzz/lib/draws.hpp): RapidCheck's random numbers fill it as the generator asks, and a failing
// instance shrinks by shrinking the tape, dropping runs of choices (what is left of the tape is
// read from where they were) and moving each choice towards 0, each generator's simplest choice.
// Every tape maps to a valid job, so shrinking never leaves the valid space, and it ends at a
// small job printed as its dump (showValue), with the family and knobs on the first line.
#pragma once

#include <rapidcheck.h>

#include <ostream>

#include "fuzz/lib/generated_jobs.hpp"
#include "fuzz/lib/instance.hpp"

namespace ordo::fuzz {

// What DesignJobs and HeterogeneousJobs draw from: every design, at 2 ranks, or 3 one time in four
// (with one key), the order guard left out one time in two, the safe or the Fig. 4 init, copied
// buffers and overlapped steps; the rest at GeneratorSettings' defaults.
GeneratorSettings property_space();

// SPMD training steps of random networks under random designs (draw_design_job).
rc::Gen<Instance> design_jobs();
// One program per rank, each rank possibly departing from the others (draw_heterogeneous_job).
rc::Gen<Instance> heterogeneous_jobs();
// Raw engine programs from one shared script of events (raw_program.hpp).
rc::Gen<Instance> raw_jobs();
// A few collective ops on a multi-thread pool, at the edges of validity (racy_jobs.hpp).
rc::Gen<Instance> racy_jobs();
// Sends and recvs around a ring, now and then an allreduce (message_jobs.hpp). Under MPI only:
// ordo's NCCL world does not run them, and neither SPIN nor the symbolic stage models them
// (docs/semantics.md, §8), so they join the properties that hold checker and runtime together.
rc::Gen<Instance> message_jobs();

// Any family's jobs under the NCCL semantics (docs/semantics.md, §3a): the same programs, run by
// the checker and the runtime with every call a launch completed in stream order. The MPI
// families stay as they are, so their counts keep checking what they always checked.
rc::Gen<Instance> on_streams(rc::Gen<Instance> family);

// rapidcheck prints counterexamples through this: the origin, the rank count, then the dump.
void showValue(const Instance& instance, std::ostream& os);

}  // namespace ordo::fuzz
