// Jobs the checker tests verify: the designs on small networks, and hand-written programs whose
// verdict is known by construction.
#pragma once

#include <cstdint>

#include "runtime/dag/program.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::checker::testing {

// Two independent layers reading the input and a join: their backward ops run concurrently on a
// two-thread compute pool, so which gradient is ready first depends on the schedule.
networks::Network branches();

// One layer with one parameter: a single key.
networks::Network one_key();

designs::DesignConfig config(designs::DesignKind kind, std::uint32_t comm_threads);

// The design's step program for `network`, valid at any rank count.
dag::Job step_job(const networks::Network& network, const designs::DesignConfig& config);

// Two ranks on the world: rank 0 submits `allreduces0` allreduce ops, rank 1 `allreduces1`, then
// each waits for all.
dag::Job allreduce_counts(int allreduces0, int allreduces1);

// Three ranks, communicators c01 = {0,1}, c12 = {1,2}, c20 = {2,0}; each rank's main thread calls
// a barrier on its two communicators, rank 0 on c01 then c20, rank 1 on c12 then c01, rank 2 on c20
// then c12: every rank first waits for the rank that waits for the next one.
dag::Job barrier_cycle();

// The same three ranks and communicators in an order that closes no cycle: every rank calls its
// communicators in the order c01, c12, c20 restricted to the ones it belongs to.
dag::Job barrier_chain();

}  // namespace ordo::checker::testing
