// One key's push and pull through each KVStore design, against a raw in-place MPI_Allreduce of
// the same bytes on the same kind of communicator (a duplicate of the world).
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "bench/designs/sync_timer.hpp"
#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"

namespace ordo::bench {

struct OneKeyRow {
  std::uint64_t bytes = 0;
  double raw_s = 0.0;            // MPI_Allreduce(MPI_IN_PLACE) of the buffer
  double raw_copies_s = 0.0;     // memcpy in, the same allreduce, memcpy out: what a design that
                                 // copies the gradient into its buffer and back cannot beat
  std::vector<double> design_s;  // per entry of one_key_designs(), in order
};

// How a variant calls the store: push, pull and wait_for_all as they are, or all three inside
// one submit batch (runtime/engine/submit_batch.hpp), as a caller that waits at once would.
enum class Calls { plain, batched };

struct OneKeyDesign {
  designs::DesignConfig config;
  Calls calls = Calls::plain;
};

// naive, funnel, concom (one comm thread, 2 communicators, a barrier every 2 keys) and depcha
// (2 comm threads): reducing in place with plain calls, in place with batched calls, then with
// the paper's copy buffers. naive is safe here: each measured push+pull is the only collective
// until the wait for all ops that ends it.
std::vector<OneKeyDesign> one_key_designs();

// Warm-up and timed iterations for a buffer of `bytes`: more for small buffers, whose times are
// short and noisier.
Repeats one_key_repeats(std::uint64_t bytes);

// Collective over every rank of the job. Each iteration runs every variant once, in turn, so
// that a change in the machine's load during the run affects all of them alike. Every design's
// engine gets `pool_options` (the engine's wait tuning is measured through it).
std::vector<OneKeyRow> run_one_key(const comm::MpiRuntime& runtime,
                                   const std::vector<std::uint64_t>& sizes,
                                   const engine::ThreadPoolOptions& pool_options);

// Three markdown tables, in place (plain, then batched calls) and with copy buffers: per size the
// raw time and throughput, then each variant's throughput and its ratio to raw (raw time / variant
// time).
void print_one_key(std::FILE* out, const std::vector<OneKeyRow>& rows);

}  // namespace ordo::bench
