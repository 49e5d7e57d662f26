// The design configurations the MPI tests run on real ranks, each one safe for every network:
// a run that issued collectives in different orders on different ranks would corrupt data or
// hang instead of failing cleanly, so only configurations whose order is forced belong here.
//
// naive is not in this list: its allreduces are unordered engine ops, and a network whose
// gradients become ready in a different order on different ranks (branches, several comm
// threads) makes it issue them out of step. It is tested only on a network with a single key
// (run_steps_test.cpp), where each step has exactly one collective and steps are separated by a
// wait for all ops, so there is no second collective to reorder.
#pragma once

#include <string>
#include <vector>

#include "runtime/designs/design_config.hpp"

namespace ordo::kvstore::mpi_test {

// funnel: the main thread issues every allreduce, in key order.
designs::DesignConfig funnel_config();
// concom with one comm thread: its FIFO pool runs the allreduces in submit order, at most one at a
// time, and the main thread's barriers come after it waited for every allreduce in flight.
designs::DesignConfig concom_config();
// depcha: every allreduce writes one chain var, so they run in submit order on any number of comm
// threads; `comm_threads` above one checks that the chain, not the pool, orders them.
designs::DesignConfig depcha_config(std::uint32_t comm_threads);
// fused on 2 comm threads: buckets chained as depcha chains keys. 16 KiB buckets split the test
// networks into many; 25 MiB (DDP's default) puts each step's keys in one.
designs::DesignConfig fused_config(std::uint64_t bucket_bytes);
// nonblocking: one thread issues non-blocking allreduces in key order; they complete in any order.
designs::DesignConfig nonblocking_config();
designs::DesignConfig priority_config(std::uint64_t slice_bytes);  // credit of two slices

// funnel, concom, depcha with 2 comm threads and depcha with 4, fused with both bucket sizes and
// nonblocking, all reducing in place (the default buffer mode).
std::vector<designs::DesignConfig> safe_designs();
// The paper's form of funnel, concom, depcha with 2 comm threads, fused with 16 KiB buckets and
// nonblocking: a buffer per key that push copies into (fused: unpacks into) and pull copies out of.
std::vector<designs::DesignConfig> copy_designs();
// `config` with copy buffers.
designs::DesignConfig with_copy(designs::DesignConfig config);

// A gtest parameter name: "funnel", "concom_ncomm2_outstanding2", "depcha_threads4", with
// "_copy" after it for copy buffers.
std::string test_name(const designs::DesignConfig& config);

}  // namespace ordo::kvstore::mpi_test
