// The flight recorder's ring for one communicator: the last N collectives this rank issued on it,
// numbered by the communicator's sequence number (the position MPI matches them by), each with
// who issued it, when it was issued, started and ended, and its state. A communicator's sends and
// recvs go to a ring of their own (CommRings), since they have no place in its collective order;
// there each also carries its place among the rank's messages of its kind, peer and tag, which is
// what MPI matches a message by (docs/semantics.md, §3b), and the ring counts every such stream.
//
// Written by the issuing thread and the thread that completes the call, read by a watchdog while
// collectives run: a small mutex per ring, held for a few stores, never across a call. The slots
// are allocated once; recording a collective copies a fixed number of bytes and allocates nothing,
// and the completion callback of a call is parked in its slot, so that the wrapper handed to the
// backend is two words and fits std::function's inline storage.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/rules/call.hpp"

namespace ordo::engine {
struct RunningOp;
}

namespace ordo::flight {

enum class CallState : std::uint8_t {
  issued,     // handed to the backend, not yet started there
  in_flight,  // started (blocking: the thread is in the MPI call)
  completed,
  failed,
};
std::string_view to_string(CallState state);

// Names are cut to these sizes (bytes, with a terminating zero) so that a slot has a fixed size.
inline constexpr std::size_t issuer_bytes = 64;
inline constexpr std::size_t pool_bytes = 32;

struct FlightEntry {
  std::uint64_t seq = 0;  // 0-based position in this rank's call order on the communicator
  comm::Call call;
  // A send or recv: its 0-based place among this rank's messages on the communicator of the same
  // kind, peer and tag. 0 for a collective.
  std::uint64_t nth = 0;
  bool blocking = true;
  std::array<char, issuer_bytes> issuer{};  // "main" or the engine op's name
  std::array<char, pool_bytes> pool{};      // empty: not issued from a pool thread
  std::uint32_t thread = 0;
  // steady_clock nanoseconds; 0 where the event has not happened.
  std::int64_t issued_ns = 0;
  std::int64_t started_ns = 0;
  std::int64_t ended_ns = 0;
  CallState state = CallState::issued;
};

// One stream of messages: a rank's sends to one peer, or its recvs from one peer (or from any
// source), with one tag.
struct MessageStream {
  dag::CollectiveKind kind = dag::CollectiveKind::send;
  dag::Rank peer = 0;
  std::uint32_t tag = 0;
  auto operator<=>(const MessageStream&) const = default;
};
// How many messages a rank issued in one stream over the whole run, whatever the ring still holds.
struct StreamCount {
  MessageStream stream;
  std::uint64_t issued = 0;
};

class FlightRing {
 public:
  // `capacity` is at least 1 (std::invalid_argument otherwise).
  explicit FlightRing(std::size_t capacity);
  FlightRing(const FlightRing&) = delete;
  FlightRing& operator=(const FlightRing&) = delete;

  // Records a call as issued, with the pool thread running it (null: not an engine op), and
  // returns its sequence number; a send or recv is counted in its stream (which allocates once
  // for each new stream). With `done`, parks it in the slot for complete() to run; when the
  // slot still holds an earlier call's parked callback (more calls outstanding than the ring
  // holds), nothing is parked or overwritten, `done` is left with the caller and parked() is false.
  struct Issued {
    std::uint64_t seq = 0;
    bool parked = false;
  };
  Issued issue(const comm::Call& call, bool blocking, std::string_view issuer,
               const engine::RunningOp* running, comm::Communicator::Done* done = nullptr);
  void started(std::uint64_t seq);
  // Marks the call completed (or failed) and returns its parked callback, if any, to be run by
  // the caller with no lock held.
  comm::Communicator::Done ended(std::uint64_t seq, bool failed);

  struct View {
    std::uint64_t issued = 0;          // calls ever issued: the next sequence number
    std::uint64_t unrecorded = 0;      // calls issued but kept out of a full ring (see issue)
    std::vector<FlightEntry> entries;  // oldest first
    std::vector<StreamCount> streams;  // the messages' streams, in MessageStream order
  };
  View view() const;
  // The earliest-issued call that has not ended, if the ring still holds one.
  std::optional<FlightEntry> oldest_open() const;
  std::size_t capacity() const { return slots_.size(); }

 private:
  struct Slot {
    FlightEntry entry;
    bool used = false;
    comm::Communicator::Done done;  // parked completion callback
  };
  Slot* find(std::uint64_t seq);

  mutable std::mutex mutex_;
  std::vector<Slot> slots_;
  std::uint64_t issued_ = 0;
  std::uint64_t unrecorded_ = 0;
  std::map<MessageStream, std::uint64_t> streams_;
};

// A communicator's two rings: its collectives, in the order the communicator matches them, and
// its messages.
struct CommRings {
  // `capacity` slots each (at least 1: std::invalid_argument otherwise).
  explicit CommRings(std::size_t capacity) : calls(capacity), messages(capacity) {}
  FlightRing calls;
  FlightRing messages;
  // The ring a call goes to.
  FlightRing& ring_of(const comm::Call& call);
};

std::int64_t steady_ns();

}  // namespace ordo::flight
