// A rank's timeline as it runs (docs/diagnostics.md, "Timeline"): every op function's run on its
// pool thread, every blocking wait of the main thread, every collective from issue to end with
// its key and bytes. The engine tells it about ops and waits (engine::OpTrace), a TimelineWorld
// about collectives; timeline_writer.hpp turns it into a Chrome trace.
//
// Events go into one buffer allocated at construction, under one mutex held for a few stores:
// recording copies a fixed-size record and allocates nothing (a var seen for the first time grows
// the table of its last writer). A full buffer takes no more events; it counts them as dropped,
// and the trace says so, so a long run keeps its beginning whole instead of its end in pieces.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/comm/rules/call.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/engine/op_trace.hpp"

namespace ordo::flight {

inline constexpr std::size_t timeline_events_default = 1u << 18;
inline constexpr std::size_t timeline_events_max = 1u << 24;
inline constexpr std::size_t timeline_name_bytes = 48;  // with the terminating zero

enum class TimelineKind : std::uint8_t { op, wait, collective };

struct TimelineEvent {
  TimelineKind kind = TimelineKind::op;
  dag::OpKind op_kind = dag::OpKind::compute;                       // op
  dag::CollectiveKind collective = dag::CollectiveKind::allreduce;  // collective, collective op
  bool blocking = false;                                            // collective
  bool failed = false;                                              // collective
  std::uint32_t pool = 0;    // op: pool id; collective: communicator id
  std::uint32_t thread = 0;  // op: the pool's thread index
  // steady_clock nanoseconds; end 0 while open.
  std::int64_t begin_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t key = 0;         // collective, collective op
  std::uint64_t bytes = 0;      // collective, collective op
  std::int64_t flow_from = -1;  // collective op: the op that last wrote a var it reduces
  std::int64_t issuer = -1;     // collective: the op event that issued it; -1: the main thread
  std::array<char, timeline_name_bytes> name{};  // op name, or the var a wait is for
};

// Everything a writer needs, copied out under the lock.
struct TimelineContents {
  dag::Rank rank = 0;
  std::uint32_t world_size = 1;
  std::int64_t origin_ns = 0;  // the rank's time 0 (set_origin)
  std::size_t capacity = 0;
  std::uint64_t dropped = 0;
  std::vector<TimelineEvent> events;    // in the order they began
  std::vector<std::string> pool_names;  // by pool id
  std::vector<std::string> comm_names;  // by communicator id
};

class TimelineLog final : public engine::OpTrace {
 public:
  // Room for `capacity` events (1..timeline_events_max, std::invalid_argument otherwise).
  TimelineLog(dag::Rank rank, std::uint32_t world_size,
              std::size_t capacity = timeline_events_default);

  // Time 0 of this rank's trace, a steady_clock reading taken by every rank at one moment (right
  // after a barrier) so that the ranks' traces line up. Defaults to the construction time.
  void set_origin(std::int64_t steady_ns);
  void set_comm_name(dag::CommId id, std::string_view name);

  std::int64_t op_begin(const engine::OpDesc& desc, const std::string& pool_name,
                        std::uint32_t thread) override;
  void op_end(std::int64_t token) override;
  std::int64_t wait_begin(std::string_view what, std::string_view var) override;
  void wait_end(std::int64_t token) override;

  // A collective issued on communicator `comm` by the calling thread (the op it runs, if any);
  // returns a token for collective_end, -1 when dropped.
  std::int64_t collective_begin(dag::CommId comm, const comm::Call& call, bool blocking);
  void collective_end(std::int64_t token, bool failed);

  TimelineContents contents() const;

 private:
  std::int64_t add(const TimelineEvent& event);  // under mutex_
  void end(std::int64_t token, bool failed);

  const dag::Rank rank_;
  const std::uint32_t world_size_;
  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::int64_t origin_ns_;
  std::vector<TimelineEvent> events_;  // reserved to capacity_
  std::uint64_t dropped_ = 0;
  std::vector<std::int64_t> last_writer_;  // by var id: the op event that last wrote it
  std::vector<std::string> pool_names_;
  std::vector<std::string> comm_names_;
};

}  // namespace ordo::flight
