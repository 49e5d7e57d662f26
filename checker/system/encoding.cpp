#include "checker/system/encoding.hpp"

#include <algorithm>
#include <cassert>
#include <optional>
#include <vector>

namespace ordo::checker {

namespace {

// A posted call is named by its rank and tag: the call itself is a function of the party (a
// program's op, or its main thread at pc, which the rank's encoding holds).
void put_posted(std::string& out, const comm::Posted& posted) {
  put_uint(out, std::uint64_t{posted.call.issuer.rank} + 1);
  put_uint(out, posted.tag);
  put_uint(out, posted.returned ? 1u : 0u);
}

void put_message(std::string& out, const comm::PeerPosted& posted) {
  put_uint(out, std::uint64_t{posted.call.issuer.rank} + 1);
  put_uint(out, posted.tag);
  put_uint(out, posted.returned ? 1u : 0u);
}

// The communicator's sends and recvs (§3b): each channel with its count of messages delivered
// (the position of the next one) and what waits in it, then the members with held recvs. A
// communicator that never carried a message adds one byte, so jobs of collectives alone keep
// their states' size.
void put_peers(const comm::PeerState& peers, std::string& out) {
  const std::uint64_t holding = peers.held().size();
  if (peers.channels().empty() && holding == 0) {
    put_uint(out, 0);
    return;
  }
  put_uint(out, 1);
  put_uint(out, peers.channels().size());
  for (const auto& [key, channel] : peers.channels()) {
    const auto& [source, dest, tag] = key;
    put_uint(out, source);
    put_uint(out, dest);
    put_uint(out, tag);
    put_uint(out, channel.delivered);
    put_uint(out, channel.sends.size());
    for (const comm::PeerPosted& p : channel.sends) put_message(out, p);
    put_uint(out, channel.recvs.size());
    for (const comm::PeerPosted& p : channel.recvs) put_message(out, p);
  }
  put_uint(out, holding);
  for (const auto& [m, held] : peers.held()) {
    put_uint(out, m);
    put_uint(out, held.size());
    for (const comm::PeerPosted& p : held) put_message(out, p);
  }
}

// put_uint into a buffer the caller sized: the rank's encoding is written with no check per
// byte, then appended at once.
unsigned char* put_uint_at(unsigned char* at, std::uint64_t value) {
  while (value >= 0x80) {
    *at++ = static_cast<unsigned char>((value & 0x7f) | 0x80);
    value >>= 7;
  }
  *at++ = static_cast<unsigned char>(value);
  return at;
}

void encode_rank_fresh(const RankState& r, std::string& out) {
  constexpr std::size_t uint_max = 10;  // bytes of one put_uint at most
  // pc and main_blocked; per op its phase, slot state, pending count and thread bit; per pool
  // its ready count and each ready op (a live op).
  const std::size_t bound = 2 * uint_max + r.phase.size() * (4 * uint_max) +
                            (r.rules.pools() + r.rules.ops_live()) * uint_max +
                            (1 + 4 * r.stream.launches().size()) * uint_max +
                            (1 + 3 * r.choices.size()) * uint_max;
  thread_local std::vector<unsigned char> buffer;
  if (buffer.size() < bound) buffer.resize(bound);
  unsigned char* at = buffer.data();
  at = put_uint_at(at, r.pc);
  at = put_uint_at(at, (r.main_blocked ? 1u : 0u) + (r.main_may_return ? 2u : 0u) +
                           (r.choices.empty() ? 0u : 4u));
  // The messages its recvs from any source may take: a function of the communicators' states,
  // but a rank-local transition's successor is looked up by this encoding alone
  // (search/transition_memo.hpp), and must keep them. Absent, as is usual, it adds nothing.
  if (!r.choices.empty()) {
    at = put_uint_at(at, r.choices.size());
    for (const RankState::Choice& c : r.choices) {
      at = put_uint_at(at, c.comm);
      at = put_uint_at(at, c.tag);
      at = put_uint_at(at, c.source);
    }
  }
  for (std::size_t op = 0; op < r.phase.size(); ++op) {
    const OpPhase phase = r.phase[op];
    at = put_uint_at(at, static_cast<std::uint64_t>(phase));
    if (phase == OpPhase::unsubmitted || phase == OpPhase::completed) continue;
    // A submitted op is live, so its handle names its slot.
    assert(r.rules.find(r.handle[op]) != nullptr);
    const engine::OpSlot& slot = r.rules.slot(r.handle[op].slot);
    at = put_uint_at(at, static_cast<std::uint64_t>(slot.state));
    at = put_uint_at(at, slot.pending);
    // Whether it holds a thread, not which: threads of one pool are interchangeable, so states
    // that differ only in thread names have the same futures up to that renaming.
    at = put_uint_at(at, slot.holds_thread ? 1u : 0u);
  }
  // Run queues in the order their pools would start the ops, named by op id: op slots and
  // ready sequence numbers are history, not state.
  for (dag::PoolId pool = 0; pool < r.rules.pools(); ++pool) {
    at = put_uint_at(at, r.rules.ready_count(pool));
    r.rules.for_each_ready(pool,
                           [&](std::uint32_t slot) { at = put_uint_at(at, r.op_of_slot[slot]); });
  }
  // A stream-ordered backend's launches, head first: which calls wait behind which is state. Under
  // MPI the stream is always empty and adds one byte.
  at = put_uint_at(at, r.stream.launches().size());
  for (const comm::Launch& l : r.stream.launches()) {
    at = put_uint_at(at, l.comm);
    at = put_uint_at(at, l.seq);
    at = put_uint_at(at, l.tag);
    at = put_uint_at(at, l.matched ? 1u : 0u);
  }
  assert(static_cast<std::size_t>(at - buffer.data()) <= bound);
  out.append(reinterpret_cast<const char*>(buffer.data()),
             static_cast<std::size_t>(at - buffer.data()));
}

}  // namespace

const std::string& rank_encoding(const State& state, dag::Rank rank) {
  const RankState& r = state.rank(rank);
  if (!r.encoded.valid) {
    r.encoded.bytes.clear();
    encode_rank_fresh(r, r.encoded.bytes);
    r.encoded.valid = true;
  }
  return r.encoded.bytes;
}

void put_comm(const comm::MatchState& c, std::string& out) {
  for (std::size_t m = 0; m < c.members(); ++m) put_uint(out, c.next_seq(m));
  for (std::size_t m = 0; m < c.members(); ++m) {
    put_uint(out, c.in_flight(m).size());
    for (std::uint64_t seq : c.in_flight(m)) put_uint(out, seq);
  }
  put_uint(out, c.slots().size());
  for (const auto& [seq, slot] : c.slots()) {
    put_uint(out, seq);
    for (const auto& p : slot) {
      if (p) {
        put_posted(out, *p);
      } else {
        put_uint(out, 0);  // a posted call's encoding starts with its rank plus one
      }
    }
  }
  put_peers(c.peers(), out);
}

void put_member_view(const comm::MatchState& c, std::size_t member, std::string& out) {
  put_uint(out, c.next_seq(member));
  put_uint(out, c.in_flight(member).size());
  for (std::uint64_t seq : c.in_flight(member)) put_uint(out, seq);
  for (const auto& [seq, slot] : c.slots()) {
    const std::optional<comm::Posted>& p = slot[member];
    if (!p) {
      put_uint(out, 0);
      continue;
    }
    put_uint(out, p->returned ? 2 : 1);
    put_uint(out, p->tag);
  }
}

void put_slot_seqs(const comm::MatchState& c, std::string& out) {
  put_uint(out, c.slots().size());
  for (const auto& entry : c.slots()) put_uint(out, entry.first);
}

std::string encode(const System& model, const State& state) {
  std::string out;
  for (dag::Rank rank = 0; rank < model.ranks(); ++rank) out += rank_encoding(state, rank);
  for (dag::CommId id = 0; id < state.comm_count(); ++id) put_comm(state.comm(id), out);
  return out;
}

std::string encode_up_to_rank_renaming(const System& model, const State& state) {
  // One key per rank: its own state and its view of every communicator (communicator rank ==
  // world rank under the precondition). Sorting the keys forgets which rank holds which.
  std::vector<std::string> keys(model.ranks());
  for (dag::Rank rank = 0; rank < model.ranks(); ++rank) {
    keys[rank] = rank_encoding(state, rank);
    for (dag::CommId c = 0; c < state.comm_count(); ++c) {
      put_member_view(state.comm(c), rank, keys[rank]);
    }
  }
  std::sort(keys.begin(), keys.end());
  std::string out;
  for (dag::CommId id = 0; id < state.comm_count(); ++id) put_slot_seqs(state.comm(id), out);
  for (const std::string& key : keys) {
    put_uint(out, key.size());  // length-prefixed, so the concatenation decodes uniquely
    out += key;
  }
  return out;
}

}  // namespace ordo::checker
