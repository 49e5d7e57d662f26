#include "runtime/diag/flight_recorder.hpp"

#include <stdexcept>
#include <utility>

namespace ordo::diag {
namespace {

std::int64_t wall_us_of(std::int64_t steady_ns_value) {
  // Steady times are converted at dump time with one offset, so the ring stores the cheaper clock.
  const auto wall_now = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
  const std::int64_t steady_now_ns = flight::steady_ns();
  return wall_now - (steady_now_ns - steady_ns_value) / 1000;
}

std::int64_t wall_us_of(std::chrono::steady_clock::time_point t) {
  return wall_us_of(
      std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
}

std::chrono::steady_clock::time_point steady_of(std::int64_t ns) {
  return std::chrono::steady_clock::time_point(
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::nanoseconds(ns)));
}

bool waiting(const std::string& state) {
  return state == "waiting_var" || state == "waiting_all" || state == "in_collective";
}

DumpCall dump_call(const flight::FlightEntry& e) {
  DumpCall c;
  c.seq = e.seq;
  c.call = e.call;
  c.nth = e.nth;
  c.blocking = e.blocking;
  c.issuer = e.issuer.data();
  c.pool = e.pool.data();
  c.thread = e.thread;
  c.state = std::string(to_string(e.state));
  c.issued_us = wall_us_of(e.issued_ns);
  if (e.started_ns != 0) c.started_us = wall_us_of(e.started_ns);
  if (e.ended_ns != 0) c.ended_us = wall_us_of(e.ended_ns);
  return c;
}

}  // namespace

std::string describe(const flight::FlightEntry& entry, std::string_view comm_name) {
  // A message's place is in its stream (kind, peer, tag), not in the collective order.
  const std::string place = dag::is_point_to_point(entry.call.kind)
                                ? ", nth " + std::to_string(entry.nth)
                                : ", seq " + std::to_string(entry.seq);
  std::string text = comm::describe(entry.call, comm_name) + place + " (" +
                     (entry.issuer[0] == '\0' ? "unnamed" : entry.issuer.data());
  if (entry.pool[0] != '\0') {
    text +=
        " on pool '" + std::string(entry.pool.data()) + "' thread " + std::to_string(entry.thread);
  }
  return text + (entry.blocking ? ", blocking)" : ", non-blocking)");
}

FlightRecorder::FlightRecorder(comm::World& world, const std::vector<dag::Communicator>& comms,
                               std::size_t ring_capacity)
    : rank_(world.rank()), world_size_(world.size()), ring_capacity_(ring_capacity) {
  if (ring_capacity == 0 || ring_capacity > ring_capacity_max) {
    throw std::invalid_argument("flight recorder ring of " + std::to_string(ring_capacity) +
                                " calls; expected 1.." + std::to_string(ring_capacity_max));
  }
  if (comms.size() != world.comm_count()) {
    throw std::invalid_argument("the job names " + std::to_string(comms.size()) +
                                " communicators but the world has " +
                                std::to_string(world.comm_count()));
  }
  comms_.resize(comms.size());
  for (dag::CommId id = 0; id < comms.size(); ++id) {
    CommInfo& info = comms_[id];
    info.id = id;
    info.name = comms[id].name;
    info.members = comms[id].members;
    if (!world.is_member(id)) continue;
    comm::Communicator& c = world.comm(id);
    info.rank = c.rank();
    info.size = c.size();
    info.rings = std::make_unique<flight::CommRings>(ring_capacity);
  }
}

std::vector<flight::CommRings*> FlightRecorder::rings() {
  std::vector<flight::CommRings*> out;
  out.reserve(comms_.size());
  for (CommInfo& info : comms_) out.push_back(info.rings.get());
  return out;
}

void FlightRecorder::attach(StateSource source) {
  const std::lock_guard lock(source_mutex_);
  source_ = std::move(source);
}

void FlightRecorder::detach() {
  const std::lock_guard lock(source_mutex_);
  source_.reset();
}

Waits FlightRecorder::waits() const {
  Waits w;
  for (const CommInfo& info : comms_) {
    if (info.rings == nullptr) continue;
    for (const flight::FlightRing* ring : {&info.rings->calls, &info.rings->messages}) {
      const std::optional<flight::FlightEntry> open = ring->oldest_open();
      if (!open) continue;
      const auto since = steady_of(open->issued_ns);
      if (!w.call || since < w.call->since) w.call = Waiting{since, describe(*open, info.name)};
    }
  }
  const std::lock_guard lock(source_mutex_);
  if (source_ && source_->main) {
    const MainView main = source_->main();
    if (waiting(main.state)) w.main = Waiting{main.since, main.what};
  }
  return w;
}

RankDump FlightRecorder::dump(std::string reason, std::string detail, double hang_timeout_s) const {
  RankDump d;
  d.rank = rank_;
  d.world_size = world_size_;
  d.reason = std::move(reason);
  d.detail = std::move(detail);
  d.written_us = std::chrono::duration_cast<std::chrono::microseconds>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count();
  d.hang_timeout_s = hang_timeout_s;
  d.ring_capacity = ring_capacity_;
  for (const CommInfo& info : comms_) {
    if (info.rings == nullptr) continue;
    DumpComm c;
    c.id = info.id;
    c.name = info.name;
    c.members = info.members;
    c.rank = info.rank;
    c.size = info.size;
    const flight::FlightRing::View view = info.rings->calls.view();
    c.issued = view.issued;
    c.unrecorded = view.unrecorded;
    c.calls.reserve(view.entries.size());
    for (const flight::FlightEntry& e : view.entries) c.calls.push_back(dump_call(e));
    const flight::FlightRing::View messages = info.rings->messages.view();
    c.messages.issued = messages.issued;
    c.messages.unrecorded = messages.unrecorded;
    c.messages.calls.reserve(messages.entries.size());
    for (const flight::FlightEntry& e : messages.entries) c.messages.calls.push_back(dump_call(e));
    for (const flight::StreamCount& sc : messages.streams) {
      c.messages.streams.push_back({sc.stream.kind, sc.stream.peer, sc.stream.tag, sc.issued});
    }
    d.comms.push_back(std::move(c));
  }
  const std::lock_guard lock(source_mutex_);
  if (source_) {
    d.program = source_->program;
    if (source_->main) {
      const MainView main = source_->main();
      d.main = DumpMain{main.state, main.what, wall_us_of(main.since)};
    }
    if (source_->engine) d.engine = source_->engine();
  }
  return d;
}

}  // namespace ordo::diag
