#include "runtime/flight/timeline_log.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "runtime/flight/flight_ring.hpp"

namespace ordo::flight {
namespace {

// The op event the calling thread runs now, and whose log it is in: a collective issued from the
// op names it as its issuer. Several logs may share a process (the simulated world's ranks).
struct CurrentOp {
  const TimelineLog* log = nullptr;
  std::int64_t event = -1;
};
thread_local CurrentOp current_op;

template <std::size_t N>
void copy_name(std::array<char, N>& to, std::string_view from) {
  const std::size_t n = std::min(from.size(), N - 1);
  std::memcpy(to.data(), from.data(), n);
  to[n] = '\0';
}

}  // namespace

TimelineLog::TimelineLog(dag::Rank rank, std::uint32_t world_size, std::size_t capacity)
    : rank_(rank), world_size_(world_size), capacity_(capacity), origin_ns_(steady_ns()) {
  if (capacity == 0 || capacity > timeline_events_max) {
    throw std::invalid_argument("a timeline holds 1 to " + std::to_string(timeline_events_max) +
                                " events, not " + std::to_string(capacity));
  }
  events_.reserve(capacity_);
}

void TimelineLog::set_origin(std::int64_t steady_ns) {
  const std::lock_guard lock(mutex_);
  origin_ns_ = steady_ns;
}

void TimelineLog::set_comm_name(dag::CommId id, std::string_view name) {
  const std::lock_guard lock(mutex_);
  if (comm_names_.size() <= id) comm_names_.resize(id + 1);
  comm_names_[id] = std::string(name);
}

std::int64_t TimelineLog::add(const TimelineEvent& event) {
  if (events_.size() >= capacity_) {
    ++dropped_;
    return -1;
  }
  events_.push_back(event);
  return static_cast<std::int64_t>(events_.size() - 1);
}

std::int64_t TimelineLog::op_begin(const engine::OpDesc& desc, const std::string& pool_name,
                                   std::uint32_t thread) {
  TimelineEvent e;
  e.kind = TimelineKind::op;
  e.op_kind = desc.kind;
  e.pool = desc.pool;
  e.thread = thread;
  if (desc.collective) {
    e.collective = desc.collective->kind;
    e.key = desc.collective->key;
    e.bytes = desc.collective->count * dag::dtype_bytes(desc.collective->dtype);
  }
  copy_name(e.name, desc.name);
  const bool collective = dag::is_collective(desc.kind);
  std::int64_t token = -1;
  {
    const std::lock_guard lock(mutex_);
    if (pool_names_.size() <= desc.pool) pool_names_.resize(desc.pool + 1);
    if (pool_names_[desc.pool].empty()) pool_names_[desc.pool] = pool_name;
    if (collective) {
      // The gradient's producer: the latest op that wrote what the collective reduces. It
      // completed before this op could start (the engine's FIFO per var), so it is recorded.
      for (const auto* vars : {&desc.writes, &desc.reads}) {
        for (const engine::VarHandle v : *vars) {
          if (v.id < last_writer_.size()) e.flow_from = std::max(e.flow_from, last_writer_[v.id]);
        }
      }
    }
    e.begin_ns = steady_ns();
    token = add(e);
    if (!collective) {
      for (const engine::VarHandle v : desc.writes) {
        if (last_writer_.size() <= v.id) last_writer_.resize(v.id + 1, -1);
        last_writer_[v.id] = token;
      }
    }
  }
  // Restored by op_end: ops do not nest on a thread, but a helping caller returns to its wait.
  current_op = CurrentOp{this, token};
  return token;
}

void TimelineLog::op_end(std::int64_t token) {
  current_op = CurrentOp{};
  end(token, false);
}

std::int64_t TimelineLog::wait_begin(std::string_view what, std::string_view var) {
  TimelineEvent e;
  e.kind = TimelineKind::wait;
  // "wait_to_read" or "wait_for_all" in the name's place when no var is waited for.
  copy_name(e.name, var.empty() ? what : var);
  const std::lock_guard lock(mutex_);
  e.begin_ns = steady_ns();
  return add(e);
}

void TimelineLog::wait_end(std::int64_t token) { end(token, false); }

std::int64_t TimelineLog::collective_begin(dag::CommId comm, const comm::Call& call,
                                           bool blocking) {
  TimelineEvent e;
  e.kind = TimelineKind::collective;
  e.collective = call.kind;
  e.blocking = blocking;
  e.pool = comm;
  e.key = call.key;
  e.bytes = call.count * dag::dtype_bytes(call.dtype);
  if (current_op.log == this) e.issuer = current_op.event;
  const std::lock_guard lock(mutex_);
  e.begin_ns = steady_ns();
  return add(e);
}

void TimelineLog::collective_end(std::int64_t token, bool failed) { end(token, failed); }

void TimelineLog::end(std::int64_t token, bool failed) {
  if (token < 0) return;  // dropped
  const std::lock_guard lock(mutex_);
  TimelineEvent& e = events_[static_cast<std::size_t>(token)];
  e.end_ns = steady_ns();
  e.failed = failed;
}

TimelineContents TimelineLog::contents() const {
  const std::lock_guard lock(mutex_);
  TimelineContents c;
  c.rank = rank_;
  c.world_size = world_size_;
  c.origin_ns = origin_ns_;
  c.capacity = capacity_;
  c.dropped = dropped_;
  c.events = events_;
  c.pool_names = pool_names_;
  c.comm_names = comm_names_;
  return c;
}

}  // namespace ordo::flight
