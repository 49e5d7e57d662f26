// What each kind of IR op does when the runtime runs it, the one place where the program's
// declarative ops become behaviour:
// - compute: the kernel hook, if any, then `cost_us` of simulated device time (a sleep, since a
//   device kernel does not occupy the host thread's core), scaled;
// - copy: its one read var's bytes into its one written var; or several read vars packed end to
//   end into one written var (fused's bucket), or one read var unpacked into several written vars;
// - collective: on its communicator, in place on its buffer, which is the first written var that
//   is not a token, or else the first read var that is not a token (the paper's Fig. 4 declares
//   the broadcast weight as read); when a written buffer and a read var both exist, the read var
//   is copied into the buffer first (an out-of-place allreduce, as naive's push).
// Vars the host may not touch (Buffers::host_visible) are fine for the collective path, which
// computes addresses and hands them to the communicator, and for copies, which go through the
// vars' own memory (Buffers::copy: a device copy for device vars). A compute hook reads and
// writes bytes on the host unless it says it computes on the device, and is refused such vars
// with std::invalid_argument.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>

#include "runtime/comm/communicator.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/exec/buffers.hpp"

namespace ordo::exec {

// Called for every compute op, before its simulated time, with the world rank running it; may
// read and write the op's vars on the host, so it is refused where the vars are not
// host-visible.
using ComputeHook = std::function<void(dag::Rank rank, const dag::Op& op, Buffers& buffers)>;

struct BodyOptions {
  double compute_time_scale = 0.0;  // seconds of sleep per second of cost_us; 0: no sleep
  ComputeHook compute;
  // The hook touches the vars only on the device their memory is on, at the addresses
  // Buffers::bytes gives (the trainer's tensors on a GPU), so it may run on vars the host may
  // not touch. Its writes must have landed by the time the op completes: the hook waits for
  // them, or its ops run on a device pool (Executor::use_device_queue) whose queue's marker
  // follows them.
  bool compute_on_device = false;
  // A test's perturbation: a collective op's body sleeps a random 0 to this many microseconds
  // before it issues its call. The runtime has that window anyway (S3: the body runs outside the
  // engine lock); widening it makes the issue orders it allows show up in a few runs, not one in
  // a thousand. 0 in production.
  std::uint32_t issue_jitter_us = 0;
};

// Where a collective op reads and writes.
struct CollectiveBuffers {
  std::optional<dag::VarId> buffer;
  std::optional<dag::VarId> source;
};
CollectiveBuffers collective_buffers(const dag::Op& op, const Buffers& buffers);
// The elements of `buffer` the call moves: from its offset, count of them. Throws
// std::invalid_argument when they run past the var (`who` names the caller in the message).
std::span<std::byte> collective_slice(const dag::Collective& c, dag::VarId buffer,
                                      Buffers& buffers, const std::string& who);

void run_compute(dag::Rank rank, const dag::Op& op, Buffers& buffers, const BodyOptions& options);
// With `queue`, the op is a device pool's: its copies are enqueued there (Buffers::copy).
void run_copy(const dag::Op& op, Buffers& buffers, engine::DeviceQueue* queue = nullptr);
// Issues the collective; `done` runs once when it completes. `blocking` selects call_then (the
// issuing thread is held) or start_then.
void issue_collective(const dag::Op& op, Buffers& buffers, comm::Communicator& comm, bool blocking,
                      comm::Communicator::Done done);
// Sleeps a random 0 to `jitter_us` microseconds (nothing when 0).
void jitter(std::uint32_t jitter_us);

}  // namespace ordo::exec
