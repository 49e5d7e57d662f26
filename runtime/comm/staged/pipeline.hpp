// One collective on a device buffer carried out by MPI on a host copy of it: device to host,
// the collective on the host bytes, host to device. Large buffers go through in chunks, with
// the copies of chunk i+1 (in) and chunk i-1 (out) under way while chunk i is reduced, so that
// for a large gradient the copies hide behind the collective (or it behind them) instead of
// adding to it.
#pragma once

#include <cstddef>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/staged/stager.hpp"

namespace ordo::comm {

// Carries out `call` on `device_buffer` (reached only through `stager`) by the same collective on
// `host`, a communicator over host memory (the MPI backend; the simulated world in tests):
//   allreduce, bcast, reduce: pipelined, one host collective per chunk of at most `chunk_bytes`
//     (at least one element; a count of 0 is one empty chunk, so the collective still takes part
//     in matching), through three chunk-sized host slots. Only what changes is copied: a bcast's
//     root copies in and the others copy out; a reduce copies out at the root only.
//   reduce_scatter, allgather: not pipelined. Every member's block is spread over the whole
//     buffer, and a chunk of the buffer is not a collective MPI can express in place, so the
//     whole buffer is staged at once: reduce_scatter copies the buffer in and this rank's block
//     out, allgather this rank's block in and the buffer out.
//   barrier: the host barrier; nothing is copied.
// `blocking` picks the host calls' form (host.call, or host.start then wait), so that what MPI
// matches is what the caller issued. Every member must pass the same `chunk_bytes`: the chunks
// are the host collectives MPI matches. The call must have passed check_call. On an error no
// copy is left in flight, and the error is the host's or the stager's, unchanged.
void run_staged(Communicator& host, Stager& stager, const Call& call, void* device_buffer,
                std::size_t chunk_bytes, bool blocking);

}  // namespace ordo::comm
