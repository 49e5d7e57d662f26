// The completion rule of a stream-ordered backend (docs/semantics.md, D1-D3) as thread-free
// values: per rank one FIFO of launched calls, and the rule that settles them. A call completes
// when it has matched and it is at the head of every member's stream; completing it pops it
// there, which may bring other matched calls to their heads. The checker keeps one stream per
// rank in every explored state and the simulated world one per rank under its lock; both settle
// with `settle_streams`.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::comm {

// One launched call: its communicator, its sequence number there, and the holder's tag for it.
struct Launch {
  dag::CommId comm = 0;
  std::uint64_t seq = 0;
  std::uint64_t tag = 0;
  bool matched = false;
  friend bool operator==(const Launch&, const Launch&) = default;
};

class DeviceStream {
 public:
  void launch(dag::CommId comm, std::uint64_t seq, std::uint64_t tag);
  // Marks call `seq` of `comm` matched; returns false when it is not on this stream.
  bool mark_matched(dag::CommId comm, std::uint64_t seq);
  const Launch* head() const { return queue_.empty() ? nullptr : &queue_.front(); }
  void pop_head();
  bool empty() const { return queue_.empty(); }
  const std::vector<Launch>& launches() const { return queue_; }  // head first
  void clear() { queue_.clear(); }
  friend bool operator==(const DeviceStream&, const DeviceStream&) = default;

 private:
  std::vector<Launch> queue_;  // short: a rank has few calls launched and not completed
};

// Where the streams are: the checker's states copy a rank's part only when it is written, so
// reading and writing are asked for apart.
class StreamSet {
 public:
  virtual ~StreamSet() = default;
  virtual const DeviceStream& stream(dag::Rank rank) const = 0;
  virtual DeviceStream& stream_for_write(dag::Rank rank) = 0;
  virtual const std::vector<dag::Rank>& members(dag::CommId comm) const = 0;
};

struct StreamDone {
  dag::Rank rank = 0;
  std::uint64_t tag = 0;
};

// Call `seq` of `comm` has just matched (every member launched it). Marks it on every member's
// stream, then completes, as one event, every call that is matched and at the head of all its
// members' streams, until none is. Returns the completed calls' issuers in completion order
// (per call, in communicator-rank order).
std::vector<StreamDone> settle_streams(StreamSet& streams, dag::CommId comm, std::uint64_t seq);

// The members whose stream head is not call `seq` of `comm`, for a rank whose head it is: who
// that call waits for (deadlock reports).
std::vector<dag::Rank> heads_elsewhere(const StreamSet& streams, dag::CommId comm,
                                       std::uint64_t seq);

}  // namespace ordo::comm
