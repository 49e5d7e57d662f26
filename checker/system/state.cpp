#include "checker/system/state.hpp"

#include <algorithm>
#include <cassert>
#include <optional>

namespace ordo::checker {

RankState::RankState(const dag::Program& program)
    : rules(program.pools, engine::Limits{}),
      phase(program.ops.size(), OpPhase::unsubmitted),
      handle(program.ops.size()) {
  for (std::size_t v = 0; v < program.vars.size(); ++v) {
    [[maybe_unused]] const engine::VarHandle h = rules.add_var();
    assert(h.id == v);
  }
}

RankState& State::rank_for_write(dag::Rank r) {
  RankState& rank = ranks_.at(r).write();
  rank.encoded.drop();
  rank.enabled.drop();
  return rank;
}

comm::MatchState& State::comm_for_write(dag::CommId c) { return comms_.at(c).write(); }

bool State::wrote_only(const State& parent, dag::Rank rank) const {
  for (dag::Rank r = 0; r < rank_count(); ++r) {
    if (r != rank && !ranks_.at(r).shares(parent.ranks_.at(r))) return false;
  }
  for (dag::CommId c = 0; c < comm_count(); ++c) {
    if (!comms_.at(c).shares(parent.comms_.at(c))) return false;
  }
  return true;
}

void State::add_rank(RankState rank) { ranks_.emplace_back(std::move(rank)); }

void State::add_comm(comm::MatchState comm) { comms_.emplace_back(std::move(comm)); }

State initial_state(const System& model) {
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

bool rank_finished(const System& model, const State& state, dag::Rank rank) {
  const RankState& r = state.rank(rank);
  return r.pc >= model.program(rank).main.size() && !r.main_blocked &&
         r.rules.ops_incomplete() == 0;
}

bool finished(const System& model, const State& state) {
  for (dag::Rank r = 0; r < model.ranks(); ++r) {
    if (!rank_finished(model, state, r)) return false;
  }
  // A call returned from early is still unmatched while a member has not issued it, and under
  // the synchronising reading its issuer is still in it (C4).
  // So is a message never received (M5).
  for (dag::CommId c = 0; c < state.comm_count(); ++c) {
    if (!state.comm(c).slots().empty() || !state.comm(c).peers().empty()) return false;
  }
  return true;
}

}  // namespace ordo::checker
