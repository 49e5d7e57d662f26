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
}

void encode_rank_fresh(const RankState& r, std::string& out) {
  put_uint(out, r.pc);
  put_uint(out, r.main_blocked ? 1u : 0u);
  for (std::size_t op = 0; op < r.phase.size(); ++op) {
    const OpPhase phase = r.phase[op];
    put_uint(out, static_cast<std::uint64_t>(phase));
    if (phase == OpPhase::unsubmitted || phase == OpPhase::completed) continue;
    const engine::OpSlot* slot = r.rules.find(r.handle[op]);
    assert(slot != nullptr);
    put_uint(out, static_cast<std::uint64_t>(slot->state));
    put_uint(out, slot->pending);
    // Whether it holds a thread, not which: threads of one pool are interchangeable, so states
    // that differ only in thread names have the same futures up to that renaming.
    put_uint(out, slot->holds_thread ? 1u : 0u);
  }
  // Run queues in the order their pools would start the ops, named by op id: op slots and
  // ready sequence numbers are history, not state.
  for (dag::PoolId pool = 0; pool < r.rules.pools(); ++pool) {
    put_uint(out, r.rules.ready_count(pool));
    r.rules.for_each_ready(pool, [&](std::uint32_t slot) { put_uint(out, r.op_of_slot[slot]); });
  }
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
    put_uint(out, 1);
    put_uint(out, p->tag);
  }
}

void put_slot_seqs(const comm::MatchState& c, std::string& out) {
  put_uint(out, c.slots().size());
  for (const auto& entry : c.slots()) put_uint(out, entry.first);
}

std::string encode(const Model& model, const State& state) {
  std::string out;
  for (dag::Rank rank = 0; rank < model.ranks(); ++rank) out += rank_encoding(state, rank);
  for (dag::CommId id = 0; id < state.comm_count(); ++id) put_comm(state.comm(id), out);
  return out;
}

std::string encode_up_to_rank_renaming(const Model& model, const State& state) {
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
