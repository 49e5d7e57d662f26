// Timing a collective piece of work on every rank of an MPI job: all ranks start together after
// a barrier, and the time taken is the slowest rank's, since a collective is done only when the
// last rank has its result. Repeated measurements report the median, which one descheduled
// iteration on a shared machine does not move.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace ordo::bench {

// Warm-up iterations (not timed: first touches of memory, MPI's connection set-up) and timed
// iterations.
struct Repeats {
  std::uint32_t warmup = 0;
  std::uint32_t timed = 0;
};

// Collective over `comm`: a barrier, `body` on this rank, and the maximum over ranks of the
// seconds `body` took. Call on the main thread only, with no engine op issuing collectives on
// `comm` meanwhile.
double slowest_rank_seconds(MPI_Comm comm, const std::function<void()>& body);

// The median of an odd or even number of samples (the mean of the middle two); `samples` must
// not be empty.
double median(std::vector<double> samples);

// Collective over MPI_COMM_WORLD: every variant once per round, in turn, so that a change in the
// machine's load affects all of them alike; the first round is a warm-up. Returns each variant's
// median of the other rounds (slowest rank). `rounds` must be at least 2.
std::vector<double> medians_in_turn(const std::vector<std::function<void()>>& variants,
                                    std::uint32_t rounds);

// The maximum over the ranks of `comm` of `value`.
double max_over_ranks(MPI_Comm comm, double value);
std::uint64_t sum_over_ranks(MPI_Comm comm, std::uint64_t value);

}  // namespace ordo::bench
