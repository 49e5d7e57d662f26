#include "checker/system/deadlock.hpp"

#include <stdexcept>
#include <string>

#include "runtime/dag/action_text.hpp"

namespace ordo::checker {

namespace {

// The sequence number of the unmatched call of `op` (nullopt: the main thread) of `rank`.
std::optional<std::uint64_t> seq_of(const Model& model, const State& state, dag::CommId comm,
                                    dag::Rank rank, std::optional<dag::OpId> op) {
  const std::int64_t member = model.member_of(comm, rank);
  if (member < 0) return std::nullopt;
  return state.comm(comm).seq_of(static_cast<std::size_t>(member), tag_of(op));
}

std::string waiting_for(const Model& model, const State& state, dag::CommId comm, dag::Rank rank,
                        std::optional<dag::OpId> op) {
  const std::optional<std::uint64_t> seq = seq_of(model, state, comm, rank, op);
  if (!seq) return "";
  std::string s = ", call " + std::to_string(*seq) + ", waiting for rank(s)";
  for (std::size_t m : state.comm(comm).missing_members(*seq)) {
    s += " " + std::to_string(model.members(comm)[m]);
  }
  return s;
}

std::string main_line(const Model& model, const State& state, dag::Rank rank) {
  const RankState& r = state.rank(rank);
  const dag::Program& p = model.program(rank);
  std::string s = "rank " + std::to_string(rank) + " " +
                  dag::describe_main(p, model.job().comms, r.pc, r.main_blocked);
  if (r.pc >= p.main.size()) return s;
  const dag::Action& a = p.main[r.pc];
  if (const auto* w = std::get_if<dag::WaitToReadAction>(&a)) {
    const engine::VarHandle v{w->var};
    return s + " (" + std::to_string(r.rules.writes_completed(v)) + " of " +
           std::to_string(r.rules.writes_submitted(v)) + " writes completed)";
  }
  if (std::holds_alternative<dag::WaitForAllAction>(a)) {
    return s + " (" + std::to_string(r.rules.ops_incomplete()) + " ops incomplete)";
  }
  if (const auto* c = std::get_if<dag::CollectiveAction>(&a)) {
    return s + waiting_for(model, state, c->collective.comm, rank, std::nullopt);
  }
  return s;
}

std::string op_line(const Model& model, const State& state, dag::Rank rank, dag::OpId op) {
  const RankState& r = state.rank(rank);
  const dag::Program& p = model.program(rank);
  const dag::Op& o = p.ops[op];
  const engine::OpSlot* slot = r.rules.find(r.handle[op]);
  std::string s = "rank " + std::to_string(rank) + " op '" + o.name + "'";
  if (slot != nullptr && slot->holds_thread) {
    s += " on pool '" + p.pools[o.pool].name + "' thread " + std::to_string(slot->thread);
  }
  switch (r.phase[op]) {
    case OpPhase::issued:
      return s + ": in " + describe(model, *o.collective) +
             waiting_for(model, state, o.collective->comm, rank, op);
    case OpPhase::claimed:
      return s + ": claimed, about to issue " + describe(model, *o.collective);
    case OpPhase::submitted:
      if (slot != nullptr && slot->state == engine::OpState::ready) {
        return s + ": ready, no free thread in pool '" + p.pools[o.pool].name + "'";
      }
      return s + ": waiting for " + std::to_string(slot == nullptr ? 0 : slot->pending) +
             " var grant(s)";
    default:
      return s + ": running";
  }
}

void add_edges(const Model& model, const State& state, dag::CommId comm, dag::Rank rank,
               std::optional<dag::OpId> op, const std::string& party,
               std::vector<comm::WaitEdge>& edges) {
  const std::optional<std::uint64_t> seq = seq_of(model, state, comm, rank, op);
  if (!seq) return;
  for (std::size_t m : state.comm(comm).missing_members(*seq)) {
    edges.push_back(
        comm::WaitEdge{rank, party, model.job().comms.at(comm).name, *seq, model.members(comm)[m]});
  }
}

}  // namespace

bool collective_pending(const State& state) {
  for (dag::CommId c = 0; c < state.comm_count(); ++c) {
    if (!state.comm(c).slots().empty()) return true;
  }
  // A matched call that its streams hold back is a collective no rank has got past (D2).
  for (dag::Rank r = 0; r < state.rank_count(); ++r) {
    if (!state.rank(r).stream.empty()) return true;
  }
  return false;
}

namespace {

// The checker's states read as streams, for the deadlock report only.
class ReadStreams final : public comm::StreamSet {
 public:
  ReadStreams(const Model& model, const State& state) : model_(model), state_(state) {}
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
  const Model& model_;
  const State& state_;
};

// What a stuck rank's stream holds: its head, matched or not, and the members whose heads are
// elsewhere, which the head waits for (D2).
void add_stream(const Model& model, const State& state, dag::Rank rank, comm::Deadlock& d) {
  const comm::DeviceStream& s = state.rank(rank).stream;
  const comm::Launch* head = s.head();
  if (head == nullptr) return;
  const std::string& comm_name = model.job().comms.at(head->comm).name;
  const std::optional<dag::OpId> op = op_of_tag(head->tag);
  const std::string party = op ? model.program(rank).ops.at(*op).name : "main";
  std::string line = "rank " + std::to_string(rank) + " stream: " + std::to_string(s.launches().size()) +
                     " launch(es); at its head " + party + "'s call " + std::to_string(head->seq) +
                     " on '" + comm_name + "'";
  if (!head->matched) {
    d.waits.push_back(line + ", not matched yet");
    return;
  }
  const ReadStreams streams(model, state);
  line += ", matched, waiting for the stream head(s) of rank(s)";
  for (dag::Rank other : comm::heads_elsewhere(streams, head->comm, head->seq)) {
    line += " " + std::to_string(other);
    d.edges.push_back(comm::WaitEdge{rank, party, comm_name, head->seq, other});
  }
  d.waits.push_back(line);
}

}  // namespace

comm::Deadlock describe_deadlock(const Model& model, const State& state) {
  comm::Deadlock d;
  for (dag::Rank rank = 0; rank < model.ranks(); ++rank) {
    if (rank_finished(model, state, rank)) continue;
    d.ranks_blocked.push_back(rank);
    d.waits.push_back(main_line(model, state, rank));
    const RankState& r = state.rank(rank);
    const dag::Program& p = model.program(rank);
    if (r.main_blocked) {
      const auto& c = std::get<dag::CollectiveAction>(p.main.at(r.pc));
      add_edges(model, state, c.collective.comm, rank, std::nullopt, "main", d.edges);
    }
    for (dag::OpId op = 0; op < r.phase.size(); ++op) {
      if (r.phase[op] != OpPhase::unsubmitted && r.phase[op] != OpPhase::completed) {
        d.waits.push_back(op_line(model, state, rank, op));
      }
      if (r.phase[op] == OpPhase::issued) {
        add_edges(model, state, p.ops[op].collective->comm, rank, op, p.ops[op].name, d.edges);
      }
    }
    add_stream(model, state, rank, d);
  }
  return d;
}

}  // namespace ordo::checker
