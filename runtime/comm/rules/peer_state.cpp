#include "runtime/comm/rules/peer_state.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <string>
#include <utility>

namespace ordo::comm {
namespace {

bool from_any(const PeerPosted& recv) { return *recv.call.call.peer == dag::any_source; }

// P1 for a message (M3): `present` was in the channel first, `arriving` is the new one.
std::optional<Violation> disagreement(const PeerPosted& send, const PeerPosted& recv,
                                      const PeerPosted& present, const PeerPosted& arriving,
                                      std::uint64_t seq, dag::CommId comm,
                                      std::string_view comm_name) {
  if (message_agrees(send.call.call, recv.call.call)) return std::nullopt;
  return Violation{Mismatch{comm, std::string(comm_name), seq, {present.call, arriving.call}}};
}

}  // namespace

PeerResult PeerState::post(std::size_t member, IssuedCall call, std::uint64_t tag, dag::CommId comm,
                           std::string_view comm_name) {
  assert(member < members_);
  assert(call.call.peer.has_value() && "a send or recv names its peer");
  const PeerState before = *this;
  PeerEvents events;
  PeerPosted posted{std::move(call), member, tag, false};
  const Call& c = posted.call.call;
  std::optional<Violation> violation;
  if (c.kind == dag::CollectiveKind::send) {
    const auto dest = static_cast<std::size_t>(*c.peer);
    PeerChannel& channel = channels_[{member, dest, c.tag}];
    if (channel.recvs.empty()) {
      channel.sends.push_back(posted);
      // Standard mode may buffer (MPI-3.1 §3.4): the send may return before its receive.
      events.may_return_members.push_back(member);
      events.may_return_tags.push_back(tag);
    } else {
      const PeerPosted& recv = channel.recvs.front();
      violation = disagreement(posted, recv, recv, posted, channel.delivered, comm, comm_name);
      if (!violation) {
        events.matches.push_back({member, tag, false, recv.member, recv.tag, channel.delivered});
        ++channel.delivered;
        channel.recvs.pop_front();
      }
    }
  } else {
    // Behind a held receive from any source with its message tag, a receive waits (M4); a
    // receive from any source always waits to be chosen.
    const auto held = held_.find(member);
    const bool behind = held != held_.end() &&
                        std::any_of(held->second.begin(), held->second.end(),
                                    [&](const PeerPosted& h) { return h.call.call.tag == c.tag; });
    if (from_any(posted) || behind) {
      held_[member].push_back(std::move(posted));
    } else {
      violation = enter(std::move(posted), events, comm, comm_name);
    }
  }
  if (violation) {
    *this = before;
    return std::move(*violation);
  }
  return events;
}

std::optional<Violation> PeerState::enter(PeerPosted recv, PeerEvents& events, dag::CommId comm,
                                          std::string_view comm_name) {
  assert(!from_any(recv) && "a receive from any source enters its channel by choose");
  const Call& c = recv.call.call;
  PeerChannel& channel = channels_[{static_cast<std::size_t>(*c.peer), recv.member, c.tag}];
  if (channel.sends.empty()) {
    channel.recvs.push_back(std::move(recv));
    return std::nullopt;
  }
  const PeerPosted& send = channel.sends.front();
  if (auto v = disagreement(send, recv, send, recv, channel.delivered, comm, comm_name)) return v;
  events.matches.push_back(
      {send.member, send.tag, send.returned, recv.member, recv.tag, channel.delivered});
  ++channel.delivered;
  channel.sends.pop_front();
  return std::nullopt;
}

std::vector<PeerChoice> PeerState::choices(std::size_t receiver) const {
  std::vector<PeerChoice> out;
  const auto found = held_.find(receiver);
  if (found == held_.end()) return out;
  const std::deque<PeerPosted>& held = found->second;
  for (std::size_t i = 0; i < held.size(); ++i) {
    const std::uint32_t message_tag = held[i].call.call.tag;
    const bool first =
        std::none_of(held.begin(), held.begin() + static_cast<std::ptrdiff_t>(i),
                     [&](const PeerPosted& h) { return h.call.call.tag == message_tag; });
    if (!first) continue;
    assert(from_any(held[i]) && "the first receive held per message tag is from any source");
    for (const auto& [key, channel] : channels_) {
      const auto& [source, dest, tag] = key;
      if (dest == receiver && tag == message_tag && !channel.sends.empty()) {
        out.push_back({receiver, held[i].tag, source});
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const PeerChoice& a, const PeerChoice& b) {
    return std::tie(a.tag, a.source) < std::tie(b.tag, b.source);
  });
  return out;
}

PeerResult PeerState::choose(const PeerChoice& choice, dag::CommId comm,
                             std::string_view comm_name) {
  const std::vector<PeerChoice> open = choices(choice.receiver);
  if (std::find(open.begin(), open.end(), choice) == open.end()) {
    throw std::logic_error("rank " + std::to_string(choice.receiver) +
                           " of the communicator has no receive from any source that may take "
                           "the message of rank " +
                           std::to_string(choice.source) + " now");
  }
  const PeerState before = *this;
  std::deque<PeerPosted>& held = held_.at(choice.receiver);
  const auto it = std::find_if(held.begin(), held.end(),
                               [&](const PeerPosted& h) { return h.tag == choice.tag; });
  PeerPosted recv = std::move(*it);
  held.erase(it);
  PeerEvents events;
  PeerChannel& channel = channels_.at({choice.source, choice.receiver, recv.call.call.tag});
  const PeerPosted& send = channel.sends.front();
  std::optional<Violation> violation =
      disagreement(send, recv, send, recv, channel.delivered, comm, comm_name);
  if (!violation) {
    events.matches.push_back(
        {send.member, send.tag, send.returned, recv.member, recv.tag, channel.delivered});
    ++channel.delivered;
    channel.sends.pop_front();
    violation = release_held(choice.receiver, events, comm, comm_name);
  }
  if (violation) {
    *this = before;
    return std::move(*violation);
  }
  return events;
}

std::optional<Violation> PeerState::release_held(std::size_t receiver, PeerEvents& events,
                                                 dag::CommId comm, std::string_view comm_name) {
  std::deque<PeerPosted>& held = held_.at(receiver);
  std::deque<PeerPosted> still;
  std::optional<Violation> violation;
  for (PeerPosted& h : held) {
    const std::uint32_t message_tag = h.call.call.tag;
    const bool behind = std::any_of(still.begin(), still.end(), [&](const PeerPosted& s) {
      return s.call.call.tag == message_tag;
    });
    if (from_any(h) || behind) {
      still.push_back(std::move(h));
    } else if (!violation) {
      violation = enter(std::move(h), events, comm, comm_name);
    }
  }
  if (violation) return violation;  // the caller puts the state back as it was
  if (still.empty()) {
    held_.erase(receiver);
  } else {
    held = std::move(still);
  }
  return std::nullopt;
}

const PeerPosted* PeerState::find(std::size_t member, std::uint64_t tag) const {
  return const_cast<PeerState*>(this)->find(member, tag);
}

PeerPosted* PeerState::find(std::size_t member, std::uint64_t tag) {
  for (auto& [key, channel] : channels_) {
    for (auto* queue : {&channel.sends, &channel.recvs}) {
      for (PeerPosted& p : *queue) {
        if (p.member == member && p.tag == tag && !p.returned) return &p;
      }
    }
  }
  const auto held = held_.find(member);
  if (held == held_.end()) return nullptr;
  for (PeerPosted& p : held->second) {
    if (p.tag == tag) return &p;
  }
  return nullptr;
}

bool PeerState::may_return(std::size_t member, std::uint64_t tag) const {
  const PeerPosted* p = find(member, tag);
  return p != nullptr && p->call.call.kind == dag::CollectiveKind::send;
}

void PeerState::mark_returned(std::size_t member, std::uint64_t tag) {
  if (!may_return(member, tag)) {
    throw std::logic_error("only an unmatched send returns before its receive");
  }
  find(member, tag)->returned = true;
}

bool PeerState::in_flight(std::size_t member, std::uint64_t tag) const {
  return find(member, tag) != nullptr;
}

bool PeerState::empty() const {
  for (const auto& [key, channel] : channels_) {
    if (!channel.sends.empty() || !channel.recvs.empty()) return false;
  }
  return held_.empty();
}

void PeerState::clear() {
  for (auto& [key, channel] : channels_) {
    channel.sends.clear();
    channel.recvs.clear();
  }
  held_.clear();
}

}  // namespace ordo::comm
