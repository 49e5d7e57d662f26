// How long a collective takes on a network of `ranks` ranks, in the alpha-beta model of the
// algorithms MPI libraries use for large messages: alpha is a message's start-up cost, beta the
// link's time per byte (its inverse bandwidth). An allreduce is a ring (reduce-scatter, then
// all-gather): 2(p-1) messages and 2(p-1)/p of the data through every link; a bcast is a
// binomial tree of start-ups with the data sent once through a pipeline, and a reduce the same
// tree towards the root; a reduce_scatter or an allgather is one half of the ring; a barrier is
// a dissemination of log2(p) rounds.
#pragma once

#include <cstdint>

#include "runtime/dag/program.hpp"

namespace ordo::checker::timing {

struct LinkModel {
  double alpha_us = 5.0;         // per message
  double bytes_per_us = 1250.0;  // 1 / beta: 1250 bytes per microsecond is 10 Gbit/s
};

// Microseconds the collective takes once every rank has issued it; 0 on one rank.
double collective_us(const dag::Collective& collective, std::uint32_t ranks, const LinkModel& link);

// Throws std::invalid_argument for a model that is not finite and positive.
void check_link(const LinkModel& link);

}  // namespace ordo::checker::timing
