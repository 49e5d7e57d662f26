#include "checker/system/deadlock.hpp"

#include <stdexcept>
#include <string>

#include "runtime/comm/rules/deadlock.hpp"

namespace ordo::checker {

namespace {

// The checker's states read as streams, for the description only.
class ReadStreams final : public comm::StreamSet {
 public:
  ReadStreams(const System& model, const State& state) : model_(model), state_(state) {}
  const comm::DeviceStream& stream(dag::Rank rank) const override {
    return state_.rank(rank).stream;
  }
  comm::DeviceStream& stream_for_write(dag::Rank) override {
    throw std::logic_error("the deadlock report does not write streams");
  }
  const std::vector<dag::Rank>& members(dag::CommId comm) const override {
    return model_.members(comm);
  }

 private:
  const System& model_;
  const State& state_;
};

comm::OpWait op_wait(const System& model, const RankState& r, dag::Rank rank, dag::OpId op) {
  const dag::Program& p = model.program(rank);
  const dag::Op& o = p.ops[op];
  const engine::OpSlot* slot = r.rules.find(r.handle[op]);
  comm::OpWait w;
  w.name = o.name;
  w.pool = p.pools[o.pool].name;
  if (slot != nullptr && slot->holds_thread) w.thread = slot->thread;
  switch (r.phase[op]) {
    case OpPhase::issued:
    case OpPhase::returnable:  // under the synchronising reading P3 judges by, still in the call
      w.state = comm::OpWait::State::in_call;
      w.call = comm::call_of(*o.collective);
      w.comm_name = model.job().comms.at(o.collective->comm).name;
      break;
    case OpPhase::submitted:
      if (slot != nullptr && slot->state == engine::OpState::ready) {
        w.state = comm::OpWait::State::ready;
      } else {
        w.state = comm::OpWait::State::waiting_for_vars;
        w.grants_pending = slot == nullptr ? 0 : slot->pending;
      }
      break;
    default:  // claimed, running or fired: a transition is enabled, so not in a stuck state
      w.state = comm::OpWait::State::running;
      break;
  }
  return w;
}

comm::RankAccount account(const System& model, const State& state, dag::Rank rank) {
  const RankState& r = state.rank(rank);
  comm::RankAccount a;
  a.rank = rank;
  a.finished = rank_finished(model, state, rank);
  if (a.finished) return a;
  a.main = comm::main_wait(
      rank, model.program(rank), model.job().comms, r.pc, r.main_blocked,
      [&r](dag::VarId var) {
        const engine::VarHandle v{var};
        return std::optional(std::pair(r.rules.writes_completed(v), r.rules.writes_submitted(v)));
      },
      r.rules.ops_incomplete());
  for (dag::OpId op = 0; op < r.phase.size(); ++op) {
    if (r.phase[op] != OpPhase::unsubmitted && r.phase[op] != OpPhase::completed) {
      a.ops.push_back(op_wait(model, r, rank, op));
    }
  }
  return a;
}

}  // namespace

comm::Deadlock describe_deadlock(const System& model, const State& state) {
  std::vector<comm::RankAccount> ranks;
  ranks.reserve(model.ranks());
  for (dag::Rank rank = 0; rank < model.ranks(); ++rank) {
    ranks.push_back(account(model, state, rank));
  }
  std::vector<comm::CommView> comms;
  for (dag::CommId c = 0; c < state.comm_count(); ++c) {
    comms.push_back(
        comm::CommView{&model.job().comms.at(c).name, &model.members(c), &state.comm(c)});
  }
  const ReadStreams streams(model, state);
  const bool ordered = comm::stream_ordered(model.backend());
  return comm::describe_deadlock(std::move(ranks), comms, ordered ? &streams : nullptr,
                                 [&model](dag::Rank rank, std::uint64_t tag) -> std::string {
                                   const std::optional<dag::OpId> op = op_of_tag(tag);
                                   return op ? model.program(rank).ops.at(*op).name : "main";
                                 });
}

}  // namespace ordo::checker
