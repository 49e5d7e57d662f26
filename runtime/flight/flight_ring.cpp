#include "runtime/flight/flight_ring.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "runtime/engine/core.hpp"

namespace ordo::flight {
namespace {

template <std::size_t N>
void copy_cut(std::array<char, N>& to, std::string_view from) {
  const std::size_t n = std::min(from.size(), N - 1);
  std::memcpy(to.data(), from.data(), n);
  to[n] = '\0';
}

bool open(CallState state) { return state == CallState::issued || state == CallState::in_flight; }

}  // namespace

std::string_view to_string(CallState state) {
  switch (state) {
    case CallState::issued:
      return "issued";
    case CallState::in_flight:
      return "in_flight";
    case CallState::completed:
      return "completed";
    case CallState::failed:
      return "failed";
  }
  return "unknown";
}

std::int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

FlightRing::FlightRing(std::size_t capacity) : slots_(capacity) {
  if (capacity == 0) throw std::invalid_argument("a flight recorder ring needs at least one slot");
}

FlightRing::Issued FlightRing::issue(const comm::Call& call, bool blocking, std::string_view issuer,
                                     const engine::RunningOp* running,
                                     comm::Communicator::Done* done) {
  const std::int64_t now = steady_ns();
  const std::lock_guard lock(mutex_);
  const std::uint64_t seq = issued_++;
  Slot& slot = slots_[seq % slots_.size()];
  // Counted even when it goes unrecorded below: analysis matches messages by these counts.
  std::uint64_t nth = 0;
  if (dag::is_point_to_point(call.kind)) {
    nth = streams_[MessageStream{call.kind, call.peer.value_or(0), call.tag}]++;
  }
  if (slot.done) {
    // An earlier call still waits in this slot for its completion: keep it, record nothing.
    ++unrecorded_;
    return {seq, false};
  }
  FlightEntry& e = slot.entry;
  e.seq = seq;
  e.call = call;
  e.nth = nth;
  e.blocking = blocking;
  copy_cut(e.issuer, issuer);
  if (running != nullptr && running->pool_name != nullptr) {
    copy_cut(e.pool, *running->pool_name);
    e.thread = running->thread;
  } else {
    e.pool[0] = '\0';
    e.thread = 0;
  }
  e.issued_ns = now;
  e.started_ns = 0;
  e.ended_ns = 0;
  e.state = CallState::issued;
  slot.used = true;
  if (done != nullptr) slot.done = std::move(*done);
  return {seq, done != nullptr};
}

FlightRing::Slot* FlightRing::find(std::uint64_t seq) {
  Slot& slot = slots_[seq % slots_.size()];
  return slot.used && slot.entry.seq == seq ? &slot : nullptr;
}

void FlightRing::started(std::uint64_t seq) {
  const std::int64_t now = steady_ns();
  const std::lock_guard lock(mutex_);
  Slot* slot = find(seq);
  // The call may have ended already (a completion on another thread) or left the ring.
  if (slot == nullptr || slot->entry.state != CallState::issued) return;
  slot->entry.state = CallState::in_flight;
  slot->entry.started_ns = now;
}

comm::Communicator::Done FlightRing::ended(std::uint64_t seq, bool failed) {
  const std::int64_t now = steady_ns();
  const std::lock_guard lock(mutex_);
  Slot* slot = find(seq);
  if (slot == nullptr) return {};
  FlightEntry& e = slot->entry;
  if (e.started_ns == 0) e.started_ns = now;
  e.ended_ns = now;
  e.state = failed ? CallState::failed : CallState::completed;
  return std::exchange(slot->done, comm::Communicator::Done());
}

FlightRing::View FlightRing::view() const {
  const std::lock_guard lock(mutex_);
  View v;
  v.issued = issued_;
  v.unrecorded = unrecorded_;
  v.entries.reserve(slots_.size());
  const std::uint64_t first = issued_ > slots_.size() ? issued_ - slots_.size() : 0;
  for (std::uint64_t seq = first; seq < issued_; ++seq) {
    const Slot& slot = slots_[seq % slots_.size()];
    if (slot.used && slot.entry.seq == seq) v.entries.push_back(slot.entry);
  }
  v.streams.reserve(streams_.size());
  for (const auto& [stream, issued] : streams_) v.streams.push_back({stream, issued});
  return v;
}

std::optional<FlightEntry> FlightRing::oldest_open() const {
  const std::lock_guard lock(mutex_);
  std::optional<FlightEntry> oldest;
  for (const Slot& slot : slots_) {
    if (!slot.used || !open(slot.entry.state)) continue;
    if (!oldest || slot.entry.issued_ns < oldest->issued_ns) oldest = slot.entry;
  }
  return oldest;
}

FlightRing& CommRings::ring_of(const comm::Call& call) {
  return dag::is_point_to_point(call.kind) ? messages : calls;
}

}  // namespace ordo::flight
