#include "checker/system/state.hpp"

#include <algorithm>
#include <cassert>
#include <optional>

namespace ordo::checker {

RankState::RankState(const dag::Program& program)
    : rules(program.pools, engine::Limits{}),
      phase(program.ops.size(), OpPhase::unpushed),
      handle(program.ops.size()) {
  for (std::size_t v = 0; v < program.vars.size(); ++v) {
    [[maybe_unused]] const engine::VarHandle h = rules.add_var();
    assert(h.id == v);
  }
}

RankState& State::rank_for_write(dag::Rank r) {
  RankState& rank = ranks_.at(r).write();
  rank.encoded.valid = false;
  return rank;
}

comm::MatchState& State::comm_for_write(dag::CommId c) { return comms_.at(c).write(); }

void State::add_rank(RankState rank) { ranks_.emplace_back(std::move(rank)); }

void State::add_comm(comm::MatchState comm) { comms_.emplace_back(std::move(comm)); }

State initial_state(const Model& model) {
  State s;
  for (dag::Rank r = 0; r < model.ranks(); ++r) s.add_rank(RankState(model.program(r)));
  for (dag::CommId c = 0; c < model.comms(); ++c) {
    s.add_comm(comm::MatchState(c, model.members(c).size()));
  }
  return s;
}

std::uint64_t tag_of(std::optional<dag::OpId> op) { return op ? std::uint64_t{*op} + 1 : 0; }

std::optional<dag::OpId> op_of_tag(std::uint64_t tag) {
  if (tag == 0) return std::nullopt;
  return static_cast<dag::OpId>(tag - 1);
}

bool rank_finished(const Model& model, const State& state, dag::Rank rank) {
  const RankState& r = state.rank(rank);
  return r.pc >= model.program(rank).main.size() && !r.main_blocked &&
         r.rules.ops_incomplete() == 0;
}

bool finished(const Model& model, const State& state) {
  for (dag::Rank r = 0; r < model.ranks(); ++r) {
    if (!rank_finished(model, state, r)) return false;
  }
  return true;
}

namespace {

// LEB128: seven bits a byte, high bit set on every byte but the last. Prefix-free, so the
// concatenation of values decodes uniquely, and the small values states hold take one byte: the
// visited set stores every encoding, so its size is the checker's memory.
void put(std::string& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>(static_cast<unsigned char>((value & 0x7f) | 0x80)));
    value >>= 7;
  }
  out.push_back(static_cast<char>(static_cast<unsigned char>(value)));
}

// A posted call is named by its rank and tag: the call itself is a function of the party (a
// program's op, or its main thread at pc, which the rank's encoding holds).
void put_posted(std::string& out, const comm::Posted& posted) {
  put(out, std::uint64_t{posted.call.issuer.rank} + 1);
  put(out, posted.tag);
}

void encode_rank_fresh(const RankState& r, std::string& out) {
  put(out, r.pc);
  put(out, r.main_blocked ? 1u : 0u);
  for (std::size_t op = 0; op < r.phase.size(); ++op) {
    const OpPhase phase = r.phase[op];
    put(out, static_cast<std::uint64_t>(phase));
    if (phase == OpPhase::unpushed || phase == OpPhase::completed) continue;
    const engine::OpSlot* slot = r.rules.find(r.handle[op]);
    assert(slot != nullptr);
    put(out, static_cast<std::uint64_t>(slot->state));
    put(out, slot->pending);
    // Whether it holds a thread, not which: threads of one pool are interchangeable, so states
    // that differ only in thread names have the same futures up to that renaming.
    put(out, slot->holds_thread ? 1u : 0u);
  }
  // Run queues in the order their pools would start the ops, named by op id: op slots and
  // ready sequence numbers are history, not state.
  for (dag::PoolId pool = 0; pool < r.rules.pools(); ++pool) {
    put(out, r.rules.ready_count(pool));
    r.rules.for_each_ready(pool, [&](std::uint32_t slot) { put(out, r.op_of_slot[slot]); });
  }
}

// The rank's encoding, from its cache when the rank has not been written since.
void encode_rank(const State& state, dag::Rank rank, std::string& out) {
  const RankState& r = state.rank(rank);
  if (!r.encoded.valid) {
    r.encoded.bytes.clear();
    encode_rank_fresh(r, r.encoded.bytes);
    r.encoded.valid = true;
  }
  out += r.encoded.bytes;
}

void encode_member_view(const comm::MatchState& c, std::size_t member, std::string& out) {
  put(out, c.next_seq(member));
  put(out, c.in_flight(member).size());
  for (std::uint64_t seq : c.in_flight(member)) put(out, seq);
  for (const auto& [seq, slot] : c.slots()) {
    const std::optional<comm::Posted>& p = slot[member];
    if (!p) {
      put(out, 0);
      continue;
    }
    put(out, 1);
    put(out, p->tag);
  }
}

}  // namespace

namespace {

void encode_comms(const State& state, std::string& out) {
  for (dag::CommId id = 0; id < state.comm_count(); ++id) {
    const comm::MatchState& c = state.comm(id);
    for (std::size_t m = 0; m < c.members(); ++m) put(out, c.next_seq(m));
    for (std::size_t m = 0; m < c.members(); ++m) {
      put(out, c.in_flight(m).size());
      for (std::uint64_t seq : c.in_flight(m)) put(out, seq);
    }
    put(out, c.slots().size());
    for (const auto& [seq, slot] : c.slots()) {
      put(out, seq);
      for (const auto& p : slot) {
        if (p) {
          put_posted(out, *p);
        } else {
          put(out, 0);  // a posted call's encoding starts with its rank plus one
        }
      }
    }
  }
}

void encode_exact(const Model& model, const State& state, std::string& out) {
  out.clear();
  for (dag::Rank rank = 0; rank < model.ranks(); ++rank) encode_rank(state, rank, out);
  encode_comms(state, out);
}

// One key per rank: its own state and its view of every communicator (communicator rank ==
// world rank under the precondition). Sorting the keys forgets which rank holds which.
void encode_renamed(const Model& model, const State& state, std::string& out,
                    std::vector<std::string>& keys) {
  keys.resize(model.ranks());
  for (dag::Rank rank = 0; rank < model.ranks(); ++rank) {
    keys[rank].clear();
    encode_rank(state, rank, keys[rank]);
    for (dag::CommId c = 0; c < state.comm_count(); ++c) {
      encode_member_view(state.comm(c), rank, keys[rank]);
    }
  }
  std::sort(keys.begin(), keys.end());
  out.clear();
  for (dag::CommId id = 0; id < state.comm_count(); ++id) {
    const comm::MatchState& c = state.comm(id);
    put(out, c.slots().size());
    for (const auto& entry : c.slots()) put(out, entry.first);
  }
  for (const std::string& key : keys) {
    put(out, key.size());  // length-prefixed, so the concatenation decodes uniquely
    out += key;
  }
}

}  // namespace

std::string encode(const Model& model, const State& state) {
  std::string out;
  encode_exact(model, state, out);
  return out;
}

std::string encode_up_to_rank_renaming(const Model& model, const State& state) {
  std::string out;
  std::vector<std::string> keys;
  encode_renamed(model, state, out, keys);
  return out;
}

StateKeys::StateKeys(const Model& model, bool symmetry)
    : model_(model), symmetric_(symmetry && model.ranks_interchangeable()) {}

std::string_view StateKeys::key(const State& state) {
  if (symmetric_) {
    encode_renamed(model_, state, out_, rank_keys_);
  } else {
    encode_exact(model_, state, out_);
  }
  return out_;
}

}  // namespace ordo::checker
