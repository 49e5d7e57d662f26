// What breaks a property of the job (docs/semantics.md, P1-P5), in one type for everything that
// finds it: the simulated world at run time, and the checker, which must report a violation the
// runtime would see in the same terms so that a witness and its replay can be compared field by
// field. Each case carries enough to name every party.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "runtime/comm/rules/call.hpp"

namespace ordo::comm {

// Who issued a call: a world rank and the party on it, "main" or the engine op's name (op names
// are unique within a program, so the pair names one party).
struct Issuer {
  dag::Rank rank = 0;
  std::string name;
  friend bool operator==(const Issuer&, const Issuer&) = default;
};

struct IssuedCall {
  Issuer issuer;
  Call call;
  bool blocking = true;  // the issuer holds its thread until the call completes
  friend bool operator==(const IssuedCall&, const IssuedCall&) = default;
};

// P1: the seq-th calls on a communicator disagree. `calls` are the calls present when the
// disagreement was seen, in communicator-rank order, the offending one last.
struct Mismatch {
  dag::CommId comm = 0;
  std::string comm_name;
  std::uint64_t seq = 0;  // 0-based position in the communicator's call order
  std::vector<IssuedCall> calls;
  friend bool operator==(const Mismatch&, const Mismatch&) = default;
};

// P2: a rank issued `second` on a communicator while `in_flight`, a blocking call, was still
// unmatched there.
struct ThreadRuleBreak {
  dag::CommId comm = 0;
  std::string comm_name;
  IssuedCall in_flight;
  IssuedCall second;
  friend bool operator==(const ThreadRuleBreak&, const ThreadRuleBreak&) = default;
};

// One edge of a deadlock's wait-for graph: a party of rank `from` is in the seq-th call on a
// communicator that rank `to` has not issued yet (or, on a stream-ordered backend, whose stream
// head is another call).
struct WaitEdge {
  dag::Rank from = 0;
  std::string party;  // "main" or the op's name
  std::string comm_name;
  std::uint64_t seq = 0;
  dag::Rank to = 0;
  friend bool operator==(const WaitEdge&, const WaitEdge&) = default;
};

// A deadlock (docs/semantics.md, S5, P3, P4) as one value, whoever finds it: the checker in a
// stuck state, the runtime's controlled run, or the simulated world's watchdog. It is built in
// one place (describe_deadlock, runtime/comm/rules/deadlock.hpp), from each rank's own account of
// its main thread and ops and from the matching states and streams, which every side holds in
// the same types; and written in words in one place (wait_lines).

// What a blocked rank's main thread does.
struct MainWait {
  dag::Rank rank = 0;
  // The main thread in words (dag::describe_main): "main action 2: wait for all", "main action 0:
  // in barrier on 'c01', key 0", "main finished"; a live run, which keeps no program and so no
  // positions, says "main: wait to read 'buf'".
  std::string doing;
  bool in_call = false;  // blocked in its own collective
  // What its wait waits for, where its engine is read (the checker and a controlled run do; a
  // threaded run's probe does not): a wait to read, the writes to its var completed of those
  // submitted; a wait for all, the ops not completed.
  std::optional<std::uint64_t> writes_completed;
  std::optional<std::uint64_t> writes_submitted;
  std::optional<std::uint64_t> ops_incomplete;
  friend bool operator==(const MainWait&, const MainWait&) = default;
};

// An op a blocked rank submitted and that has not completed, as its engine holds it.
struct OpWait {
  enum class State : std::uint8_t {
    waiting_for_vars,  // some of its vars have not granted it yet
    ready,             // in its pool's run queue, no thread free
    running,           // on a thread (not in a stuck state: a running op can complete)
    in_call,           // in its collective call: issued, not completed
  };
  dag::Rank rank = 0;
  std::string name;
  std::string pool;
  std::optional<std::uint32_t> thread;  // the pool thread it holds, while it holds one
  State state = State::waiting_for_vars;
  std::uint32_t grants_pending = 0;  // waiting_for_vars: the vars that have not granted it
  std::optional<Call> call;          // in_call: the call it is in, on `comm_name`
  std::string comm_name;
  friend bool operator==(const OpWait&, const OpWait&) = default;
};

// A call issued and not yet matched: it waits for the members that have not issued theirs.
struct CallWait {
  IssuedCall call;
  std::string comm_name;
  std::uint64_t seq = 0;
  std::vector<dag::Rank> waiting_for;  // world ranks
  friend bool operator==(const CallWait&, const CallWait&) = default;
};

// A stream-ordered backend (D2): a rank's stream that still holds calls, and its head.
struct StreamWait {
  dag::Rank rank = 0;
  std::size_t launches = 0;  // calls on the stream, the head included
  std::string party;         // who launched the head call: "main" or the op's name
  std::string comm_name;
  std::uint64_t seq = 0;
  bool matched = false;
  // A matched head: the members whose stream heads are other calls, which it waits for.
  std::vector<dag::Rank> waiting_for;
  friend bool operator==(const StreamWait&, const StreamWait&) = default;
};

// P3 (P4 when no collective is involved): nothing can move and some rank has not finished. Two
// reports of one schedule's end describe it alike, field by field, or the sides disagree on the
// state it reached.
struct Deadlock {
  std::vector<dag::Rank> ranks_blocked;  // the ranks that have not finished, in rank order
  std::vector<MainWait> mains;           // one per blocked rank, in rank order
  std::vector<OpWait> ops;               // per blocked rank, in program op order
  std::vector<CallWait> calls;           // by issuing rank, then communicator and position
  std::vector<StreamWait> streams;       // the ranks whose stream holds a call, in rank order
  friend bool operator==(const Deadlock&, const Deadlock&) = default;
};

// Whether a collective takes part: a call issued and not matched, or (stream-ordered) matched and
// held on a stream. With one, ranks wait on each other (P3); without one, a rank cannot finish
// alone (P4). A main thread blocked in its call always has it among these.
bool collective_involved(const Deadlock& deadlock);
// The wait-for graph: each call's waits, then each matched stream head's, by rank.
std::vector<WaitEdge> wait_edges(const Deadlock& deadlock);
// One line per blocked party, each beginning "rank R ": its main thread, its ops (a call's
// position and the ranks it waits for with the party in it), the calls of parties not listed,
// its stream.
std::vector<std::string> wait_lines(const Deadlock& deadlock);

// One side of a buffer race: a party and the bytes of the var it touches.
struct BufferToucher {
  std::string party;  // "main" or the op's name
  bool writes = false;
  std::uint64_t first = 0;  // the bytes [first, first + bytes) of the var
  std::uint64_t bytes = 0;
  // The call whose use of its buffer this is (or whose body copies into it); nullopt: an op's
  // body touching a var it declares.
  std::optional<Call> call = std::nullopt;
  std::string comm_name = {};
  friend bool operator==(const BufferToucher&, const BufferToucher&) = default;
};

// P5: on `rank`, `starting` began to touch bytes of `var` that `ongoing` was still touching, one
// of them writing, and nothing ordered them (docs/semantics.md, B1-B3).
struct BufferRace {
  dag::Rank rank = 0;
  std::string var;
  BufferToucher ongoing;
  BufferToucher starting;
  friend bool operator==(const BufferRace&, const BufferRace&) = default;
};

using Violation = std::variant<Mismatch, ThreadRuleBreak, Deadlock, BufferRace>;

// A multi-line report.
std::string describe(const Violation& violation);
// "op 'norm' reads bytes 0 to 400": one side of a buffer race in words.
std::string describe(const BufferToucher& touch);
// "P1 mismatch", "P2 thread rule", "deadlock" or "P5 buffer race".
std::string kind_name(const Violation& violation);
// One line for a call as reports print it: "rank 1 (ar.3, non-blocking): allreduce ...".
std::string describe(const IssuedCall& call, std::string_view comm_name);
// Whether two reports name the same violation: the same kind and every field, so for P1 and P2
// the same communicator, position and calls, and for a deadlock the same description (every
// blocked rank's main thread, ops, calls and streams).
bool same_violation(const Violation& a, const Violation& b);

// What every collective of an aborted simulated world fails with.
class ViolationError : public std::runtime_error {
 public:
  explicit ViolationError(const Violation& violation);
  const Violation& violation() const { return violation_; }

 private:
  Violation violation_;
};

}  // namespace ordo::comm
