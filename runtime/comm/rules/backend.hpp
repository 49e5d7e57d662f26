// What carries a job's collectives, as far as the semantics is concerned (docs/semantics.md, §3a).
// MPI: a blocking call holds its issuer until it matches, and calls on different communicators
// progress independently. NCCL: every call is a launch onto the rank's one communication stream,
// which returns at once; the stream runs the calls one after another in launch order, whatever
// their communicator. Both match by issue order per communicator (C1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/dag/program.hpp"

namespace ordo::comm {

enum class Backend : std::uint8_t { mpi, nccl };

std::string_view to_string(Backend backend);  // "mpi", "nccl"
std::optional<Backend> parse_backend(std::string_view name);

// Why `backend` cannot make a call of `kind`, or "" when it can. NCCL has no gather, scatter,
// alltoall, scan or exscan; the runtime refuses them there, and so does the checker.
std::string unsupported_reason(Backend backend, dag::CollectiveKind kind);

// Whether a call holds its issuer for the thread rule and counts as blocking for agreement (C2,
// C3). Under NCCL no call does: a launch returns once enqueued, and NCCL has no blocking form to
// disagree with.
bool call_blocks(Backend backend, bool blocking_in_program);

// Whether calls complete through the ranks' streams (D1-D3) rather than at their match.
inline bool stream_ordered(Backend backend) { return backend == Backend::nccl; }

// The job as the backend runs it. Under NCCL a `collective` op launches and gives its thread
// back, exactly as an `async_collective` op does, so it becomes one; nothing else changes. The
// checker's model and the runtime's controlled run both start from this view, so the rewrite is
// the one place where the backend touches the engine's rules.
dag::Job launch_view(dag::Job job, Backend backend);

// Whether a stream-ordered backend runs `launched` (a launch view) exactly as MPI does (D4): all
// its collectives are on one communicator, and either all are ops' or all are main threads'.
// Then each rank's stream is its calls on that communicator in sequence order, so a call reaches
// every head the moment it matches; and since no op's call meets a main thread's, the thread rule
// and the blocking field (the only other differences) never decide anything.
bool streams_add_nothing(const dag::Job& launched);

}  // namespace ordo::comm
