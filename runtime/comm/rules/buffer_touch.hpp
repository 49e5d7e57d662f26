// Which bytes of a rank's vars each party touches, and when two touches race (docs/semantics.md,
// B1-B3, P5), stated once for the checker and the runtime's controlled run.
//
// MPI gives a call's buffer to the library until the call completes: a send buffer may be read
// but not modified, a receive buffer neither read nor modified (MPI-3.1 §3.7.2 for requests,
// §5.12 for non-blocking collectives; a blocking call holds its buffer until it returns, and in a
// threaded process another thread touching it meanwhile is the same conflict, §12.4). The engine
// orders ops only by the vars they declare (E1-E3), so a call is safe from the ops beside it only
// where its issuer holds its buffer the way the call uses it: a main-thread call holds no var,
// and an op that declares its buffer as read while its call writes it (a bcast's non-root, an
// in-place allreduce) holds only a read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/comm/rules/violation.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::comm {

// How a call uses its buffer at one member (a communicator rank): a sender only reads it, a
// receiver writes it (in place, so it reads it too), a barrier has none. Without a member: the
// most any member does (write, unless no member writes), for a reader of a program that many
// ranks run.
enum class BufferUse : std::uint8_t { none, read, write };
BufferUse buffer_use(const dag::Collective& call, std::optional<std::size_t> member);

// One party's touch of a var: bytes [first, first + bytes) read, or written.
struct Touch {
  dag::VarId var = 0;
  std::uint64_t first = 0;
  std::uint64_t bytes = 0;
  bool writes = false;
  bool by_call = false;  // the call's use of its buffer, or the body's copy into it; else an
                         // op body's access to a var it declares
  // Its party holds a grant on the var that excludes every conflicting grant (E1-E3): an op's
  // declared access, or a call writing a buffer its op declares written. Two covered touches
  // never race; a main-thread call's touch, or an op's call writing a buffer the op only reads,
  // is not covered.
  bool covered = false;
  // Made at its party's start only and over by the next transition: the body's copy of a source
  // into its buffer before the call, which the body finishes before it hands the buffer over.
  // Checked against the touches in flight when it is made, never in flight itself.
  bool instant = false;
};

// Where a rank stands in a call's communicator: its index and the communicator's size, which
// say which block of a gather, scatter or allgather is its own.
struct Member {
  std::size_t index = 0;
  std::size_t size = 1;
};

// A party of one rank, by the tag the matching state uses (0 the main thread, op k as k + 1),
// and what it touches from the moment it starts until it ends.
struct PartyTouches {
  std::uint64_t party = 0;
  std::vector<Touch> touches;
  // The call its by_call touches belong to, in the program (which outlives this value).
  const dag::Collective* call = nullptr;
};

// What op `op` of `program` touches while it runs, on a rank that is `member` of its call's
// communicator (unused for other ops). A compute or copy op: every data var it declares, whole,
// read or written as declared, from its claim to its completion. A collective op: its call's
// slice of its buffer as the call uses it, from its issue to its completion; where the body
// copies a source in first, that slice of the buffer written and of the source read, at the
// issue only (instant). Of the kinds that move blocks (B2), a scatter's non-root writes only its
// own block and a gather's non-root reads only its own.
// Without a member: as the member that uses the call's buffer most (buffer_use), whole slice.
PartyTouches op_touches(const dag::Program& program, dag::OpId op, std::optional<Member> member);
// What the main thread's call at action `action` touches, from its issue until it returns.
PartyTouches main_touches(const dag::Program& program, std::uint32_t action,
                          std::optional<Member> member);

// Whether some touch of the program, at any member, is not covered (Touch::covered, B3): a
// main-thread call with a buffer, or a collective op whose call may write a buffer the op
// declares only as read. Where there is none, the engine's var rules (E1-E3) exclude every race,
// and a driver need not look.
bool may_race(const dag::Program& program);

// Whether a rank's calls run one after another on one stream (a stream-ordered backend, D1):
// two calls' uses of their buffers then never overlap in time, whatever their launches.
enum class CallOrder : std::uint8_t { concurrent, one_stream };

// The first touch in `ongoing` (parties in the order given, their touches in order, instant ones
// left out) that conflicts with one of `starting`'s: the same var, overlapping bytes, at least
// one a write, another party, and not two calls' uses under `one_stream`. Describes it as a race
// on `rank`, naming calls' communicators from `comms`.
std::optional<BufferRace> first_race(dag::Rank rank, const dag::Program& program,
                                     const std::vector<dag::Communicator>& comms,
                                     const std::vector<PartyTouches>& ongoing,
                                     const PartyTouches& starting,
                                     CallOrder order = CallOrder::concurrent);

// The parties of one rank that have started and not ended, kept in party order, for a driver
// that sees the transitions one by one (the controlled run). The checker derives the same list
// from its op phases instead.
class OngoingTouches {
 public:
  // Records `starting` and returns the race it starts, if any.
  std::optional<BufferRace> start(dag::Rank rank, const dag::Program& program,
                                  const std::vector<dag::Communicator>& comms,
                                  PartyTouches starting, CallOrder order = CallOrder::concurrent);
  void end(std::uint64_t party);
  const std::vector<PartyTouches>& parties() const { return parties_; }

 private:
  std::vector<PartyTouches> parties_;
};

}  // namespace ordo::comm
