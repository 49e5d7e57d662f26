// The program IR: one rank's training step as the engine sees it, and the job that groups the
// programs of all ranks. This is the only structure the runtime and the checker share, so every
// field here has one meaning, fixed in docs/dag-format.md and docs/semantics.md §2-§3.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ordo::dag {

// Indices into the tables of a Program (vars, pools, ops) or of a Job (comms).
using VarId = std::uint32_t;
using PoolId = std::uint32_t;
using OpId = std::uint32_t;
using CommId = std::uint32_t;
using Rank = std::uint32_t;

enum class VarKind : std::uint8_t { tensor, buffer, token };
enum class DType : std::uint8_t { f32, f64, f16, bf16, i8, u8, i32, i64 };
enum class PoolKind : std::uint8_t { fifo, priority };
enum class OpKind : std::uint8_t { compute, copy, collective, async_collective };
// New kinds go at the end: fingerprint records and flight dumps carry the value (docs/comm.md).
enum class CollectiveKind : std::uint8_t {
  allreduce,
  bcast,
  barrier,
  reduce,          // MPI_Reduce: only the root receives the reduction
  reduce_scatter,  // MPI_Reduce_scatter_block: each member receives its block of the reduction
  allgather,       // MPI_Allgather: each member contributes its block and receives them all
  gather,          // MPI_Gather: the root receives every member's block
  scatter,         // MPI_Scatter: each member receives its block of the root's buffer
  alltoall,        // MPI_Alltoall: block j of member i goes to block i of member j
  scan,            // MPI_Scan: member i receives the reduction of members 0 to i
  exscan,          // MPI_Exscan: member i > 0 receives the reduction of members 0 to i - 1
  // Point to point (docs/semantics.md, §3b): one member's message to one other, matched by
  // (communicator, source, destination, tag) rather than by the communicator's call order. They
  // are calls like the kinds above, made by the same ops and main-thread actions, so they share
  // the enum; `collective_kind_count` counts the kinds before them.
  send,  // MPI_Send, MPI_Isend: standard mode, to `peer`
  recv,  // MPI_Recv, MPI_Irecv: from `peer`, or from any source
};
// The collective kinds (every member of the communicator takes part) are the first ones.
inline constexpr std::uint32_t collective_kind_count =
    static_cast<std::uint32_t>(CollectiveKind::exscan) + 1;
inline constexpr std::uint32_t call_kind_count =
    static_cast<std::uint32_t>(CollectiveKind::recv) + 1;
// A recv's peer that takes a message from any source (MPI_ANY_SOURCE). No rank is this large
// (limits::ranks_max), so it never names a member.
inline constexpr std::uint32_t any_source = 0xFFFFFFFFu;
// The largest tag: MPI guarantees MPI_TAG_UB is at least this (MPI-3.1 §8.1.2).
inline constexpr std::uint32_t tag_max = 32767;
enum class Reduction : std::uint8_t { none, sum, prod, min, max };

struct Var {
  std::string name;
  VarKind kind = VarKind::tensor;
  std::uint64_t bytes = 0;
  DType dtype = DType::f32;
  friend bool operator==(const Var&, const Var&) = default;
};

struct Pool {
  std::string name;
  std::uint32_t threads = 1;
  PoolKind kind = PoolKind::fifo;
  friend bool operator==(const Pool&, const Pool&) = default;
};

// A communicator of the job. Members are world ranks in communicator-rank order; an absent
// member list means every rank of the job (MPI_COMM_WORLD or a duplicate of it).
struct Communicator {
  std::string name;
  std::optional<std::vector<Rank>> members;
  friend bool operator==(const Communicator&, const Communicator&) = default;
};

// What MPI matches between ranks: the n-th call on a communicator must agree on all of this.
struct Collective {
  CollectiveKind kind = CollectiveKind::allreduce;
  CommId comm = 0;
  std::int64_t key = 0;
  // Elements of the whole buffer on every member. For the kinds that split into blocks
  // (reduce_scatter, allgather, gather, scatter, alltoall) it is the whole array of the
  // communicator's size blocks, block i at element i * count / size.
  std::uint64_t count = 0;
  DType dtype = DType::f32;
  Reduction reduction = Reduction::none;
  std::optional<Rank> root;  // bcast, reduce, gather, scatter only; a rank of the communicator
  // Where in its buffer var the call's `count` elements start (a slice of a key). MPI sees only a
  // pointer, but it is ordo's label like the key, and matched calls must agree on it (C2).
  std::uint64_t offset = 0;
  // send and recv only: the other member, a rank of the communicator (a send's destination, a
  // recv's source, or any_source), and the message tag. Absent on the collective kinds.
  std::optional<Rank> peer = std::nullopt;
  std::uint32_t tag = 0;
  friend bool operator==(const Collective&, const Collective&) = default;
};

struct Op {
  std::string name;
  std::vector<VarId> reads;
  std::vector<VarId> writes;
  PoolId pool = 0;
  std::int32_t priority = 0;
  OpKind kind = OpKind::compute;
  double cost_us = 0.0;  // estimate used by simulators and reports, never by the semantics
  std::optional<Collective> collective;  // present exactly for collective kinds
  friend bool operator==(const Op&, const Op&) = default;
};

// The main thread's program, executed in order.
struct SubmitAction {
  OpId op = 0;
  friend bool operator==(const SubmitAction&, const SubmitAction&) = default;
};
struct WaitToReadAction {
  VarId var = 0;
  friend bool operator==(const WaitToReadAction&, const WaitToReadAction&) = default;
};
struct WaitForAllAction {
  friend bool operator==(const WaitForAllAction&, const WaitForAllAction&) = default;
};
// The main thread calls the collective itself (Funnel's allreduce, ConCom's barrier). The buffer
// is the var it reduces in place, if any; a barrier has none.
struct CollectiveAction {
  Collective collective;
  std::optional<VarId> buffer;
  friend bool operator==(const CollectiveAction&, const CollectiveAction&) = default;
};
using Action = std::variant<SubmitAction, WaitToReadAction, WaitForAllAction, CollectiveAction>;

// One rank's step. `ranks` says which ranks of the job run it: nullopt means all of them (SPMD).
struct Program {
  std::string name;
  std::optional<std::vector<Rank>> ranks;
  std::vector<Var> vars;
  std::vector<Pool> pools;
  std::vector<Op> ops;
  std::vector<Action> main;
  friend bool operator==(const Program&, const Program&) = default;
};

// A whole job: the communicators, and the programs that the ranks run. `ranks` fixes the world
// size; it may be absent only when a single SPMD program runs on every rank and every
// communicator spans all ranks, in which case the job is meaningful at any rank count.
struct Job {
  std::optional<std::uint32_t> ranks;
  std::vector<Communicator> comms;
  std::vector<Program> programs;
  friend bool operator==(const Job&, const Job&) = default;
};

// The program a given rank runs, or nullptr if no program covers it.
const Program* program_of(const Job& job, Rank rank);
// program_of for every rank below `ranks` at once, in time linear in the ranks and the programs'
// rank lists: asking program_of rank by rank scans every list each time, which is quadratic on
// a job of a million ranks.
std::vector<const Program*> programs_by_rank(const Job& job, std::uint32_t ranks);

std::uint64_t dtype_bytes(DType dtype);
bool is_collective(OpKind kind);

// The shape rules of the collective kinds (docs/semantics.md, C2), stated once for the
// validator, the call checks, the checker and the generators.
bool takes_reduction(CollectiveKind kind);  // allreduce, reduce, reduce_scatter, scan, exscan
bool takes_root(CollectiveKind kind);       // bcast, reduce, gather, scatter
// reduce_scatter, allgather, gather, scatter and alltoall split `count` into one block per
// member, so their count must be a multiple of the communicator's size.
bool splits_into_blocks(CollectiveKind kind);
// send and recv: matched per (communicator, source, destination, tag), not by call order.
bool is_point_to_point(CollectiveKind kind);
// Whether some op or main-thread action of the job makes a send or recv.
bool has_point_to_point(const Job& job);

}  // namespace ordo::dag
