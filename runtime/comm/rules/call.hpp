// What one rank passes to one collective call, and the argument checks shared by every backend
// and by the checker: a Call is checked against the communicator it is made on before any data
// moves, so a misuse fails the same way, with the same message, whether MPI, the simulated world
// or the checker (at the rank count it verifies) meets it (docs/semantics.md, C2).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/dag/program.hpp"

namespace ordo::comm {

// `key` is ordo's own label (the gradient key); MPI never sees it, the simulated world and the
// checker compare it.
struct Call {
  dag::CollectiveKind kind = dag::CollectiveKind::allreduce;
  std::int64_t key = 0;
  std::uint64_t count = 0;
  dag::DType dtype = dag::DType::f32;
  dag::Reduction reduction = dag::Reduction::none;
  std::optional<dag::Rank> root;  // bcast and reduce: rank within the communicator
  // Which elements of the key's buffer the call moves (dag::Collective::offset). Like the key it
  // is ordo's label, compared by agreement and never read by a backend: the buffer a backend is
  // given already points at element `offset`.
  std::uint64_t offset = 0;
  // send and recv (dag::Collective::peer, tag): the other member, a rank of the communicator or
  // (a recv's) dag::any_source, and the message tag.
  std::optional<dag::Rank> peer = std::nullopt;
  std::uint32_t tag = 0;
  friend bool operator==(const Call&, const Call&) = default;
};

Call call_of(const dag::Collective& collective);

// Whether two calls at one position of a communicator agree in everything MPI and ordo match
// (docs/semantics.md, C2): kind, key, offset, count, dtype, reduction and root. A barrier moves
// no data, so MPI matches any barrier with any other: its key and dtype are labels, never compared.
bool agree(const Call& a, const Call& b);
// The whole agreement rule C2: the calls agree, and both block or neither does (MPI-3.1 §5.12:
// a non-blocking collective never matches a blocking one). The matching state and the checker's
// symbolic stage both decide agreement here.
bool matches(const Call& a, bool a_blocks, const Call& b, bool b_blocks);
// Whether a send and the recv it is matched with agree (docs/semantics.md, M3): the same key,
// offset and dtype (MPI-3.1 §3.3.1: the type signatures match), and a recv at least as long as
// the message (§3.2.4: a shorter one is MPI_ERR_TRUNCATE). Blocking never matters: any send
// matches any recv (§3.7).
bool message_agrees(const Call& send, const Call& recv);

// Throws std::invalid_argument, naming the communicator and the call, unless `call` is a well
// formed collective for a communicator of `comm_size` ranks (the rules and their words are
// dag::shape_problems', shared with the dump's validator):
//   allreduce:      a reduction other than none, no root;
//   bcast:          a root below comm_size, reduction none;
//   barrier:        count 0, reduction none, no root (the buffer is ignored);
//   reduce:         a reduction other than none, a root below comm_size;
//   reduce_scatter: a reduction other than none, no root, count a multiple of comm_size;
//   allgather:      reduction none, no root, count a multiple of comm_size;
//   and for every kind but barrier a non-null buffer whenever count > 0.
void check_call(const Call& call, const void* buffer, std::string_view comm_name,
                std::uint32_t comm_size);
// The same checks without a buffer (the checker's: a program names vars, not addresses).
void check_call_shape(const Call& call, std::string_view comm_name, std::uint32_t comm_size);

// One line for diagnostics, e.g. "allreduce of 1024 x f32 (sum) on 'grads', key 3": the IR's
// collective in words (dag::describe), so that a call and the action that makes it read alike.
std::string describe(const Call& call, std::string_view comm_name);

}  // namespace ordo::comm
