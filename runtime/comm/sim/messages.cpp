// Sends and recvs in the simulated world (docs/semantics.md, §3b): the matching is the
// communicator's PeerState, shared with the checker; this file moves the data at each match, tells
// the issuers, returns sends early as the policy says (M5), and takes the choices of recvs from
// any source (M4): the driver's under Returns::held, the world's own otherwise.
#include <algorithm>
#include <cassert>
#include <cstring>
#include <stdexcept>

#include "runtime/comm/rules/completion.hpp"
#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/comm/sim/world_state.hpp"
#include "runtime/random/split_mix64.hpp"

namespace ordo::comm::sim {

void SimWorld::post_message_locked(CommState& comm, std::size_t member, Delivery delivery,
                                   std::uint64_t tag, Deliveries& out) {
  const Call& call = delivery.call;
  PeerResult result = comm.match.peers().post(
      member, IssuedCall{Issuer{delivery.rank, delivery.issuer}, call, delivery.blocking}, tag,
      comm.id, comm.name);
  if (auto* violation = std::get_if<Violation>(&result)) {
    out.emplace_back(std::move(delivery.done), nullptr);
    abort_locked(*violation, out);
    return;
  }
  // A send that may return before its recv exists has its message copied now: its issuer may
  // write the buffer again once it returned, as MPI allows (§3.4).
  const std::uint64_t bytes = call.count * dag::dtype_bytes(call.dtype);
  const bool may_leave_early = call.kind == dag::CollectiveKind::send &&
                               returns_.when != Returns::at_match && may_complete_early(backend_);
  if (may_leave_early && delivery.buffer != nullptr && bytes > 0) {
    const auto* from = static_cast<const std::byte*>(delivery.buffer);
    delivery.sent.emplace(from, from + bytes);
  }
  comm.deliveries.emplace(tag, std::move(delivery));
  apply_messages_locked(comm, std::get<PeerEvents>(result), out);
  if (call.kind == dag::CollectiveKind::recv) {
    take_choices_locked(comm, member, out);
  } else {
    take_choices_locked(comm, static_cast<std::size_t>(*call.peer), out);
  }
}

void SimWorld::apply_messages_locked(CommState& comm, const PeerEvents& events, Deliveries& out) {
  for (const PeerMatch& m : events.matches) {
    auto send_node = comm.deliveries.extract(m.send_tag);
    auto recv_node = comm.deliveries.extract(m.recv_tag);
    assert(!send_node.empty() && !recv_node.empty());
    Delivery& send = send_node.mapped();
    Delivery& recv = recv_node.mapped();
    std::erase_if(held_returns_,
                  [&](const Held& h) { return h.comm == comm.id && h.tag == m.send_tag; });
    // The message is the send's count of elements (M3: the recv is at least as long), into the
    // start of the recv's buffer; the rest of that buffer stays as it was (§3.2.4).
    const std::uint64_t bytes = send.call.count * dag::dtype_bytes(send.call.dtype);
    const void* from = send.sent ? static_cast<const void*>(send.sent->data()) : send.buffer;
    if (bytes > 0 && from != recv.buffer) std::memmove(recv.buffer, from, bytes);
    if (!m.send_returned && send.done) out.emplace_back(std::move(send.done), nullptr);
    out.emplace_back(std::move(recv.done), nullptr);
  }
  if (returns_.when == Returns::at_match || !may_complete_early(backend_)) return;
  for (std::size_t i = 0; i < events.may_return_members.size(); ++i) {
    const std::uint64_t tag = events.may_return_tags[i];
    const std::size_t member = events.may_return_members[i];
    if (returns_.when == Returns::held) {
      const Delivery& d = comm.deliveries.at(tag);
      held_returns_.push_back(Held{d.rank, d.issuer, comm.id, member, tag});
      continue;
    }
    // One draw per call, as for collectives (returns.cpp).
    if (returns_.seed != 0 && (random::SplitMix64(returns_.seed ^ tag).next() & 1u) == 0) {
      continue;
    }
    return_locked(comm, member, tag, out);
  }
}

void SimWorld::take_choices_locked(CommState& comm, std::size_t receiver, Deliveries& out) {
  if (returns_.when == Returns::held) return;  // the driver chooses (take_message)
  while (!violation_) {
    const std::vector<PeerChoice> open = comm.match.peers().choices(receiver);
    if (open.empty()) return;
    // Any waiting message is one MPI may deliver first: the first, or one drawn from the seed
    // and the recv's place in the world's order.
    std::size_t pick = 0;
    if (returns_.seed != 0) {
      pick = static_cast<std::size_t>(random::SplitMix64(returns_.seed ^ ~open[0].tag).next() %
                                      open.size());
    }
    PeerResult result = comm.match.peers().choose(open[pick], comm.id, comm.name);
    if (auto* violation = std::get_if<Violation>(&result)) {
      abort_locked(*violation, out);
      return;
    }
    apply_messages_locked(comm, std::get<PeerEvents>(result), out);
  }
}

std::vector<MessageChoice> SimWorld::message_choices(dag::Rank rank) const {
  std::lock_guard lock(mutex_);
  std::vector<MessageChoice> out;
  if (violation_) return out;
  for (const auto& comm : comms_) {
    const std::int64_t member = comm->member_of.at(rank);
    if (member < 0) continue;
    for (const PeerChoice& c : comm->match.peers().choices(static_cast<std::size_t>(member))) {
      out.push_back({comm->id, comm->deliveries.at(c.tag).issuer, comm->members.at(c.source)});
    }
  }
  return out;
}

void SimWorld::take_message(dag::Rank rank, const std::string& issuer, dag::Rank source) {
  Deliveries deliveries;
  {
    std::lock_guard lock(mutex_);
    bool taken = false;
    for (auto& comm : comms_) {
      const std::int64_t member = comm->member_of.at(rank);
      const std::int64_t from = comm->member_of.at(source);
      if (member < 0 || from < 0 || violation_) continue;
      for (const PeerChoice& c : comm->match.peers().choices(static_cast<std::size_t>(member))) {
        if (c.source != static_cast<std::size_t>(from) ||
            comm->deliveries.at(c.tag).issuer != issuer) {
          continue;
        }
        PeerResult result = comm->match.peers().choose(c, comm->id, comm->name);
        if (auto* violation = std::get_if<Violation>(&result)) {
          abort_locked(*violation, deliveries);
        } else {
          apply_messages_locked(*comm, std::get<PeerEvents>(result), deliveries);
        }
        taken = true;
        break;
      }
      if (taken) break;
    }
    if (!taken) {
      throw std::logic_error("rank " + std::to_string(rank) + ": '" + issuer +
                             "' holds no recv from any source that may take rank " +
                             std::to_string(source) + "'s message now");
    }
    deliveries_pending_ += deliveries.size();
  }
  deliver(deliveries);
}

}  // namespace ordo::comm::sim
