// Which way the KVStore embeds its collectives into the engine (docs/semantics.md §7), with the
// knobs each design has, selected by name: the paper's "naive", "funnel", "concom", "depcha", and
// "fused" (DDP/Horovod buckets), "nonblocking" (MPI-3 non-blocking allreduce), "sharded" (ZeRO:
// reduce_scatter, an update of the rank's block, allgather) and "hierarchical" (the paper's
// phases: reduce in the node, allreduce among the nodes' leaders, bcast in the node) and
// "priority" (ByteScheduler/P3: slices of keys, the next forward's first layers first) beyond it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::designs {

enum class DesignKind : std::uint8_t {
  naive,
  funnel,
  concom,
  depcha,
  fused,
  nonblocking,
  sharded,
  hierarchical,
  priority
};
// "safe": weights broadcast by ops chained through one token var. "fig4": the paper's Fig. 4,
// broadcast ops that write nothing, which may run in different orders on different ranks.
enum class InitKind : std::uint8_t { safe, fig4 };
// Where a key's allreduce runs. "in_place": on the gradient itself, so a push and pull cost one
// allreduce; the gradient var doubles as the key's buffer and the designs submit no copies.
// "copy": the paper's design as printed, a buffer per key that push copies the gradient into and
// pull copies the sum out of (MXNet copies because it merges several devices' gradients there).
// The ordering (vars each op writes, main-thread waits and calls, chains, comms, barriers) is the
// same in both; docs/kvstore.md says why in-place is as safe.
enum class BufferMode : std::uint8_t { in_place, copy };

struct DesignConfig {
  DesignKind kind = DesignKind::depcha;
  InitKind init = InitKind::safe;
  // In place by default: the runtime's keys have one gradient per rank, so the copies buy nothing
  // and cost as much as the allreduce itself on a host whose memory the transfers share.
  BufferMode buffers = BufferMode::in_place;
  std::uint32_t compute_threads = 2;
  std::uint32_t copy_threads = 1;
  std::uint32_t comm_threads = 2;  // threads of the pool that runs collective ops
  std::uint32_t ncomm = 2;         // concom: communicators the allreduces rotate over
  std::uint32_t outstanding = 2;   // concom: keys between the main thread's barriers
  // Each step starts by taking the batch a data op loaded during the step before, and loads the
  // next one on a data pool of its own while the step computes (the trainer's input pipeline).
  bool prefetch = false;
  // fused: a bucket is closed once it holds this many bytes of gradients, and a key this large
  // goes alone. 1 MiB, not DDP's 25 MiB: buckets are copies here (a gradient is not a view of
  // its bucket), and on ResNet-50 25 MiB buckets made the step's communication 1.85x slower than
  // 1 MiB ones, which already fuse every key below 64 KiB (docs/benchmarks.md).
  std::uint64_t bucket_bytes = std::uint64_t{1} << 20;
  // sharded: the ranks a key's weight is split over, one block each. The step program is then one
  // for exactly this many ranks (the job fixes its rank count): a rank updates the block its rank
  // owns, and a key whose count does not split into `shards` blocks is allreduced whole instead.
  // 0: not set, which sharded refuses; fit_to_ranks sets the job's rank count.
  std::uint32_t shards = 0;
  // hierarchical: the job's nodes and ranks per node; node n holds ranks n * node_ranks to
  // (n + 1) * node_ranks - 1, its first rank is its leader. The job is for nodes * node_ranks
  // ranks, one program per node's leader and one per node's other ranks. 0: not set, which
  // hierarchical refuses; fit_to_ranks sets them (ordo train: the layout MPI_Comm_split_type
  // reports).
  std::uint32_t nodes = 0;
  std::uint32_t node_ranks = 0;
  // priority: a key is allreduced in slices of at most this many bytes, so that a key of an
  // earlier layer waits behind one slice of a big key, not all of it.
  std::uint64_t slice_bytes = std::uint64_t{1} << 20;
  // priority: at each push, slices are released into the chain, highest priority (earliest
  // layer) first, until this many bytes went out; the rest wait for a later push, where a key of
  // an earlier layer may overtake them. ByteScheduler's credit, counted in pushes, not seconds,
  // so that every rank releases the same slices at the same push. The end of backward releases
  // what is left, earliest layer first.
  std::uint64_t credit_bytes = std::uint64_t{4} << 20;
  // fused, nonblocking, sharded, hierarchical and priority: keep the ops that fix the order the
  // collectives are issued in on every rank (fused's, sharded's and priority's chain token,
  // hierarchical's node chain on its bcasts, nonblocking's main-thread wait). Off is the design a
  // hurried implementer writes (priority's: every slice at once into the comm pool's priority
  // queue); the checker refutes it where it can go wrong (docs/kvstore.md).
  bool order_guard = true;
  friend bool operator==(const DesignConfig&, const DesignConfig&) = default;
};

// Fixed pool ids of every step program, so that designs and builders agree without lookups.
inline constexpr dag::PoolId compute_pool = 0;
inline constexpr dag::PoolId copy_pool = 1;
// nonblocking's comm pool has one thread, the one that issues its non-blocking calls in order.
inline constexpr dag::PoolId comm_pool = 2;
inline constexpr dag::PoolId data_pool = 3;  // only with prefetch
// Comm 0 is always the world; concom's rotation uses comms 1..ncomm; hierarchical's node n is
// comm 1 + n, and its leaders' comm follows the nodes' (node_comm, leaders_comm).
inline constexpr dag::CommId world_comm = 0;
dag::CommId node_comm(std::uint32_t node);
dag::CommId leaders_comm(const DesignConfig& config);
// What a design's program depends on, asked here rather than by comparing names:
// written_for_ranks: the program is one for a fixed rank count, which its knobs give (sharded's
// shards, hierarchical's nodes x node_ranks), not a program valid at any count.
bool written_for_ranks(DesignKind kind);
// needs_node_layout: the rank count comes as a node layout (hierarchical: nodes of node_ranks
// ranks, one program per node's leader and one per its other ranks).
bool needs_node_layout(DesignKind kind);
// compute_shrinks_with_ranks: a rank's own compute depends on the rank count (sharded: a rank
// updates its block of each key, 1/shards of it).
bool compute_shrinks_with_ranks(DesignKind kind);

// A job's node layout: `nodes` nodes of `node_ranks` consecutive ranks each.
struct NodeLayout {
  std::uint32_t nodes = 1;
  std::uint32_t node_ranks = 1;
};

// The one place a design is fitted to the rank count of the job it runs in: ordo train (the MPI
// world's size and node layout), verify, fuzz, replay, step-dag and simulate (--ranks, the
// trace's, each count of --ranks-list). A design not written for its rank count comes back as
// given. `ranks`: the job's rank count, nullopt where the command has none (the design's knobs
// must then fix it); `layout`: the node layout where one is known (the MPI world's).
//   sharded: shards over `ranks` unless --shards says otherwise; a --shards other than `ranks`
//     is refused.
//   hierarchical: takes `layout`, where given, and refuses a --nodes or --node-ranks other than
//     its; else with `ranks`, --node-ranks (or --nodes) gives the other, and a layout whose
//     nodes x node_ranks is not `ranks` is refused; without a rank count it needs both.
// Throws std::invalid_argument saying what was given, on how many ranks, and what was expected.
DesignConfig fit_to_ranks(DesignConfig config, std::optional<std::uint32_t> ranks,
                          std::optional<NodeLayout> layout = std::nullopt);

// The job's rank count where the design's program is written for one (sharded, hierarchical).
std::optional<std::uint32_t> design_ranks(const DesignConfig& config);
// Throws std::invalid_argument when the design is written for a rank count other than `ranks`.
void check_design_ranks(const DesignConfig& config, std::uint32_t ranks);
// sharded: whether a key of `count` elements splits into the config's `shards` blocks (it is
// then reduce_scattered, updated by blocks and allgathered; else allreduced whole).
bool splits_into_shards(const DesignConfig& config, std::uint64_t count);

std::string_view to_string(DesignKind kind);
std::string_view to_string(InitKind kind);
std::string_view to_string(BufferMode mode);
// Throws std::invalid_argument listing the known names.
DesignKind parse_design(std::string_view name);
// "naive, funnel, ..., sharded or hierarchical": for help texts and errors.
std::string design_names();
InitKind parse_init(std::string_view name);
BufferMode parse_buffers(std::string_view name);
// Whether the design has an order guard to leave out (fused, nonblocking, sharded, hierarchical,
// priority).
bool has_order_guard(DesignKind kind);
// Throws std::invalid_argument when a thread count or a design's knob is zero or out of bounds,
// or the order guard is off in a design that has none.
void check_config(const DesignConfig& config);

// The comm pool's threads: comm_threads, but one in nonblocking, whatever comm_threads says.
std::uint32_t comm_pool_threads(const DesignConfig& config);
std::vector<dag::Pool> step_pools(const DesignConfig& config);
std::vector<dag::Communicator> step_comms(const DesignConfig& config);
// "concom(comm_threads=2, ncomm=2, outstanding=4)": how reports name a configuration; the
// non-default buffer mode and prefetch are named too ("depcha(comm_threads=2, buffers=copy)").
std::string describe(const DesignConfig& config);

}  // namespace ordo::designs
