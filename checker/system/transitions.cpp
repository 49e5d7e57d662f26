#include "checker/system/transitions.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "runtime/comm/rules/buffer_touch.hpp"
#include "runtime/comm/rules/completion.hpp"

namespace ordo::checker {

namespace {

// The issuer named by `tag` learns that its call ended: the main thread returns from it (its pc
// moves on); an op may now complete.
void tell(RankState& r, std::uint64_t tag) {
  if (const std::optional<dag::OpId> op = op_of_tag(tag)) {
    r.phase.at(*op) = OpPhase::fired;
  } else {
    r.main_blocked = false;
    r.main_may_return = false;
    ++r.pc;
  }
}

// A match tells every issuer that has not returned from its call already (C4).
void deliver(const System& model, State& state, dag::CommId comm, const comm::Matched& matched) {
  const std::vector<dag::Rank>& members = model.members(comm);
  for (std::size_t m = 0; m < matched.tags.size(); ++m) {
    if (!matched.returned[m]) tell(state.rank_for_write(members[m]), matched.tags[m]);
  }
}

// The issuers whose needs an issue met may now return before the match: their next transition
// (the main thread's, or the op's completion) is the early return, beside waiting for the match.
void offer_returns(const System& model, State& state, dag::CommId comm,
                   const comm::Pending& pending) {
  if (!comm::may_complete_early(model.backend())) return;
  const std::vector<dag::Rank>& members = model.members(comm);
  for (const comm::MayReturn& may : pending.may_return) {
    RankState& r = state.rank_for_write(members[may.member]);
    if (const std::optional<dag::OpId> op = op_of_tag(may.tag)) {
      r.phase.at(*op) = OpPhase::returnable;
    } else {
      r.main_may_return = true;
    }
  }
}

// The party named by `tag` on `rank` returns from its unmatched call on `comm` (a send returns
// before its recv, M5).
void return_early(const System& model, State& state, dag::Rank rank, const dag::Collective& call,
                  std::uint64_t tag) {
  const auto member = static_cast<std::size_t>(model.member_of(call.comm, rank));
  comm::MatchState& match = state.comm_for_write(call.comm);
  if (dag::is_point_to_point(call.kind)) {
    match.peers().mark_returned(member, tag);
    return;
  }
  const std::optional<std::uint64_t> seq = match.seq_of(member, tag);
  if (!seq) throw std::logic_error("an early return from a call that is not in flight");
  match.mark_returned(member, *seq);
}

// The checker's states as the stream rule sees them (runtime/comm/rules/device_streams.hpp).
class StateStreams final : public comm::StreamSet {
 public:
  StateStreams(const System& model, State& state) : model_(model), state_(state) {}
  const comm::DeviceStream& stream(dag::Rank rank) const override {
    return state_.rank(rank).stream;
  }
  comm::DeviceStream& stream_for_write(dag::Rank rank) override {
    return state_.rank_for_write(rank).stream;
  }
  const std::vector<dag::Rank>& members(dag::CommId comm) const override {
    return model_.members(comm);
  }

 private:
  const System& model_;
  State& state_;
};

// The choices of `rank`'s held recvs on `comm` (M4) as its part keeps them (RankState::choices).
void refresh_choices(const System& model, State& state, dag::CommId comm, dag::Rank rank) {
  const std::int64_t member = model.member_of(comm, rank);
  if (member < 0) return;
  const std::vector<comm::PeerChoice> open =
      state.comm(comm).peers().choices(static_cast<std::size_t>(member));
  const std::vector<dag::Rank>& members = model.members(comm);
  std::vector<RankState::Choice> now;
  for (const comm::PeerChoice& c : open) now.push_back({comm, c.tag, members.at(c.source)});
  const RankState& before = state.rank(rank);
  std::vector<RankState::Choice> kept;
  for (const RankState::Choice& c : before.choices) {
    if (c.comm != comm) kept.push_back(c);
  }
  kept.insert(kept.end(), now.begin(), now.end());
  if (kept != before.choices) state.rank_for_write(rank).choices = std::move(kept);
}

// What a post or a choice did (§3b): every issuer whose call met its partner learns it (a send
// returned early learns nothing), an unmatched send may return (M5), and the ranks whose held
// recvs gained or lost a choice keep their new choices.
void apply_peer_events(const System& model, State& state, dag::CommId comm,
                       const comm::PeerEvents& events, std::vector<dag::Rank> touched) {
  const std::vector<dag::Rank>& members = model.members(comm);
  for (const comm::PeerMatch& m : events.matches) {
    if (!m.send_returned) tell(state.rank_for_write(members.at(m.sender)), m.send_tag);
    tell(state.rank_for_write(members.at(m.receiver)), m.recv_tag);
  }
  if (comm::may_complete_early(model.backend())) {
    comm::Pending pending;
    for (std::size_t i = 0; i < events.may_return_members.size(); ++i) {
      pending.may_return.push_back({events.may_return_members[i], events.may_return_tags[i]});
    }
    offer_returns(model, state, comm, pending);
  }
  for (dag::Rank rank : touched) refresh_choices(model, state, comm, rank);
}

// `party` of `rank` posts its send or recv (M1-M5).
std::optional<comm::Violation> post_message(const System& model, State& state, dag::Rank rank,
                                            std::optional<dag::OpId> op,
                                            const dag::Collective& collective, bool blocking,
                                            const std::string& party) {
  const dag::CommId c = collective.comm;
  const std::string& comm_name = model.job().comms.at(c).name;
  const auto member = static_cast<std::size_t>(model.member_of(c, rank));
  comm::PeerResult result = state.comm_for_write(c).peers().post(
      member,
      comm::IssuedCall{comm::Issuer{rank, party}, comm::call_of(collective),
                       comm::call_blocks(model.backend(), blocking)},
      tag_of(op), c, comm_name);
  if (auto* v = std::get_if<comm::Violation>(&result)) return std::move(*v);
  std::vector<dag::Rank> touched{rank};
  if (collective.kind == dag::CollectiveKind::send) {
    touched.push_back(model.members(c).at(*collective.peer));
  }
  apply_peer_events(model, state, c, std::get<comm::PeerEvents>(result), std::move(touched));
  return std::nullopt;
}

// `rank`'s party `tag` takes the message of world rank `source` for its recv from any source.
std::optional<comm::Violation> choose_message(const System& model, State& state, dag::Rank rank,
                                              std::uint64_t tag, dag::Rank source,
                                              const dag::Transition& transition);

// Where `rank` stands in the communicator of `call`; member 0 of 1 for a party without a call.
comm::Member member_for(const System& model, dag::Rank rank, const dag::Collective* call) {
  if (call == nullptr) return {};
  const std::int64_t m = model.member_of(call->comm, rank);
  return {m < 0 ? 0 : static_cast<std::size_t>(m), model.members(call->comm).size()};
}

comm::PartyTouches touches_of_op(const System& model, dag::Rank rank, dag::OpId op) {
  const dag::Op& o = model.program(rank).ops.at(op);
  const dag::Collective* call = o.collective ? &*o.collective : nullptr;
  return comm::op_touches(model.program(rank), op, member_for(model, rank, call));
}

// Whether `starting` races a touch of `rank` that has not ended (B1-B3): the main thread's while
// it is in its call, a compute or copy op's from its claim to its completion, a collective op's
// from its issue to its completion, in party order (comm::OngoingTouches keeps the runtime's in
// the same order).
std::optional<comm::Violation> buffer_race(const System& model, const State& state, dag::Rank rank,
                                           const comm::PartyTouches& starting) {
  if (!model.may_race(rank) || starting.touches.empty()) return std::nullopt;
  const RankState& r = state.rank(rank);
  const dag::Program& p = model.program(rank);
  std::vector<comm::PartyTouches> ongoing;
  if (r.main_blocked) {
    const auto& call = std::get<dag::CollectiveAction>(p.main.at(r.pc));
    ongoing.push_back(comm::main_touches(p, r.pc, member_for(model, rank, &call.collective)));
  }
  for (dag::OpId op = 0; op < r.phase.size(); ++op) {
    const OpPhase phase = r.phase[op];
    if (phase == OpPhase::running || phase == OpPhase::issued || phase == OpPhase::returnable ||
        phase == OpPhase::fired) {
      ongoing.push_back(touches_of_op(model, rank, op));
    }
  }
  const comm::CallOrder order = comm::stream_ordered(model.backend()) ? comm::CallOrder::one_stream
                                                                      : comm::CallOrder::concurrent;
  if (std::optional<comm::BufferRace> race =
          comm::first_race(rank, p, model.job().comms, ongoing, starting, order)) {
    return comm::Violation{std::move(*race)};
  }
  return std::nullopt;
}

// `op` issues its call, or the main thread when it is nullopt.
std::optional<comm::Violation> issue_call(const System& model, State& state, dag::Rank rank,
                                          std::optional<dag::OpId> op,
                                          const dag::Collective& collective, bool blocking) {
  const dag::CommId c = collective.comm;
  const std::int64_t member = model.member_of(c, rank);
  const std::string& comm_name = model.job().comms.at(c).name;
  if (member < 0) {
    throw std::invalid_argument("rank " + std::to_string(rank) + " issues a collective on '" +
                                comm_name + "', which it is not a member of");
  }
  const std::string party = op ? model.program(rank).ops.at(*op).name : "main";
  if (dag::is_point_to_point(collective.kind)) {
    return post_message(model, state, rank, op, collective, blocking, party);
  }
  const comm::Backend backend = model.backend();
  comm::IssueResult result = state.comm_for_write(c).issue(
      static_cast<std::size_t>(member),
      comm::IssuedCall{comm::Issuer{rank, party}, comm::call_of(collective),
                       comm::call_blocks(backend, blocking)},
      tag_of(op), comm_name);
  if (auto* v = std::get_if<comm::Violation>(&result)) return std::move(*v);
  const auto* matched = std::get_if<comm::Matched>(&result);
  if (!comm::stream_ordered(backend)) {
    if (matched != nullptr) {
      deliver(model, state, c, *matched);
    } else {
      offer_returns(model, state, c, std::get<comm::Pending>(result));
    }
    return std::nullopt;
  }
  // A launch joins the rank's stream (D1); a match completes what the streams let through (D2).
  const std::uint64_t seq = matched != nullptr ? matched->seq : std::get<comm::Pending>(result).seq;
  state.rank_for_write(rank).stream.launch(c, seq, tag_of(op));
  if (matched != nullptr) {
    StateStreams streams(model, state);
    for (const comm::StreamDone& done : comm::settle_streams(streams, c, seq)) {
      tell(state.rank_for_write(done.rank), done.tag);
    }
  }
  return std::nullopt;
}

std::logic_error not_enabled(const dag::Transition& transition, const std::string& why) {
  return std::logic_error("rank " + std::to_string(transition.rank) + ": transition on op " +
                          std::to_string(transition.op) + " is not enabled: " + why);
}

std::optional<comm::Violation> apply_main(const System& model, State& state,
                                          const dag::Transition& transition) {
  RankState& r = state.rank_for_write(transition.rank);
  if (!main_enabled(model, r, transition.rank)) {
    throw not_enabled(transition, "the main thread cannot act");
  }
  const dag::Program& p = model.program(transition.rank);
  const dag::Action& action = p.main[r.pc];
  if (r.main_blocked && transition.source) {  // its recv from any source takes a message (S9)
    return choose_message(model, state, transition.rank, tag_of(std::nullopt), *transition.source,
                          transition);
  }
  if (r.main_blocked) {  // main_enabled: its call may return before the match (C4)
    const dag::CollectiveAction& call = std::get<dag::CollectiveAction>(action);
    r.main_blocked = false;
    r.main_may_return = false;
    ++r.pc;
    return_early(model, state, transition.rank, call.collective, tag_of(std::nullopt));
    return std::nullopt;
  }
  if (const auto* submit = std::get_if<dag::SubmitAction>(&action)) {
    const dag::Op& op = p.ops.at(submit->op);
    const engine::OpHandle h = r.rules.submit_unowned(*model.desc(transition.rank, submit->op),
                                                      dag::is_collective(op.kind));
    if (r.op_of_slot.size() <= h.slot) r.op_of_slot.resize(h.slot + 1);
    r.op_of_slot[h.slot] = submit->op;
    r.handle.at(submit->op) = h;
    r.phase.at(submit->op) = OpPhase::submitted;
    ++r.pc;
    return std::nullopt;
  }
  if (const auto* c = std::get_if<dag::CollectiveAction>(&action)) {
    // The call takes its buffer as it is issued, before the matching layer sees it (B2).
    if (std::optional<comm::Violation> race = buffer_race(
            model, state, transition.rank,
            comm::main_touches(p, r.pc, member_for(model, transition.rank, &c->collective)))) {
      return race;
    }
    r.main_blocked = true;
    return issue_call(model, state, transition.rank, std::nullopt, c->collective, true);
  }
  ++r.pc;  // a wait whose condition holds returns at once
  return std::nullopt;
}

std::optional<comm::Violation> choose_message(const System& model, State& state, dag::Rank rank,
                                              std::uint64_t tag, dag::Rank source,
                                              const dag::Transition& transition) {
  const RankState& r = state.rank(rank);
  const auto open = std::find_if(r.choices.begin(), r.choices.end(),
                                 [&](const auto& c) { return c.tag == tag && c.source == source; });
  if (open == r.choices.end()) {
    throw not_enabled(transition, "no recv from any source of it may take rank " +
                                      std::to_string(source) + "'s message now");
  }
  const dag::CommId c = open->comm;
  const std::string& comm_name = model.job().comms.at(c).name;
  const comm::PeerChoice choice{static_cast<std::size_t>(model.member_of(c, rank)), tag,
                                static_cast<std::size_t>(model.member_of(c, source))};
  comm::PeerResult result = state.comm_for_write(c).peers().choose(choice, c, comm_name);
  if (auto* v = std::get_if<comm::Violation>(&result)) return std::move(*v);
  apply_peer_events(model, state, c, std::get<comm::PeerEvents>(result), {rank});
  return std::nullopt;
}

std::optional<comm::Violation> apply_match(const System& model, State& state,
                                           const dag::Transition& transition) {
  const RankState& r = state.rank(transition.rank);
  if (!transition.source || transition.op >= r.phase.size() ||
      r.phase[transition.op] != OpPhase::issued) {
    throw not_enabled(transition, "not an op in a recv from any source");
  }
  return choose_message(model, state, transition.rank, tag_of(transition.op), *transition.source,
                        transition);
}

std::optional<comm::Violation> apply_issue(const System& model, State& state,
                                           const dag::Transition& transition) {
  RankState& r = state.rank_for_write(transition.rank);
  if (transition.op >= r.phase.size() || r.phase[transition.op] != OpPhase::claimed) {
    throw not_enabled(transition, "not a claimed collective op with its call still to issue");
  }
  const dag::Op& op = model.program(transition.rank).ops[transition.op];
  // The body copies its source in and hands its buffer to the call before the matching layer
  // sees the call (B2).
  if (std::optional<comm::Violation> race = buffer_race(
          model, state, transition.rank, touches_of_op(model, transition.rank, transition.op))) {
    return race;
  }
  // The op's function issues its call and returns; a blocking collective keeps its thread until
  // it completes (the rules know this from its kind).
  r.phase[transition.op] = OpPhase::issued;
  r.rules.thread_returned(r.handle[transition.op]);
  return issue_call(model, state, transition.rank, transition.op, *op.collective,
                    op.kind == dag::OpKind::collective);
}

std::optional<comm::Violation> apply_start(const System& model, State& state,
                                           const dag::Transition& transition) {
  RankState& r = state.rank_for_write(transition.rank);
  const dag::Program& p = model.program(transition.rank);
  if (transition.op >= p.ops.size() || r.phase[transition.op] != OpPhase::submitted) {
    throw not_enabled(transition, "not submitted and waiting");
  }
  const dag::Op& op = p.ops[transition.op];
  const std::optional<engine::OpHandle> next = r.rules.peek_next(op.pool);
  if (!next || !(*next == r.handle[transition.op])) {
    throw not_enabled(transition, "not next in its pool");
  }
  const std::uint32_t thread = transition.thread ? *transition.thread : 0;
  if (!transition.thread || thread >= r.rules.threads(op.pool).threads() ||
      !r.rules.threads(op.pool).is_free(thread)) {
    throw not_enabled(transition, "no such free thread");
  }
  if (!dag::is_collective(op.kind)) {
    // Its body runs from its claim on (S7), touching what it declares (B2).
    if (std::optional<comm::Violation> race = buffer_race(
            model, state, transition.rank, touches_of_op(model, transition.rank, transition.op))) {
      return race;
    }
  }
  r.rules.start_next(op.pool, thread);
  if (!dag::is_collective(op.kind)) {
    r.phase[transition.op] = OpPhase::running;
    return std::nullopt;
  }
  r.phase[transition.op] = OpPhase::claimed;
  // The claim and the issue are one transition unless the rules say the body is its own (S3).
  if (engine::body_is_own_transition(op.kind)) return std::nullopt;
  return apply_issue(model, state, transition);
}

void apply_complete(const System& model, State& state, const dag::Transition& transition) {
  RankState& r = state.rank_for_write(transition.rank);
  if (transition.op >= r.phase.size() ||
      (r.phase[transition.op] != OpPhase::running && r.phase[transition.op] != OpPhase::fired &&
       r.phase[transition.op] != OpPhase::returnable)) {
    throw not_enabled(transition,
                      "not running, or its collective has neither matched nor may return");
  }
  const bool early = r.phase[transition.op] == OpPhase::returnable;
  r.rules.complete(r.handle[transition.op], nullptr);
  r.phase[transition.op] = OpPhase::completed;
  if (early) {
    const dag::Op& op = model.program(transition.rank).ops[transition.op];
    return_early(model, state, transition.rank, *op.collective, tag_of(transition.op));
  }
}

}  // namespace

namespace {

bool main_choice(const RankState& r) {
  return std::any_of(r.choices.begin(), r.choices.end(),
                     [](const RankState::Choice& c) { return c.tag == tag_of(std::nullopt); });
}

}  // namespace

bool main_enabled(const System& model, const RankState& r, dag::Rank rank) {
  const dag::Program& p = model.program(rank);
  // The call's early return (C4, M5), or its recv from any source taking a message (S9).
  if (r.main_blocked) return r.main_may_return || main_choice(r);
  if (r.pc >= p.main.size()) return false;
  const dag::Action& action = p.main[r.pc];
  if (const auto* w = std::get_if<dag::WaitToReadAction>(&action)) {
    return r.rules.readable(engine::VarHandle{w->var});
  }
  if (std::holds_alternative<dag::WaitForAllAction>(action)) return r.rules.all_done();
  return true;  // submit (the rules' bound of 65536 live ops is far above any program explored)
                // or the issue of a main-thread collective
}

bool returns_early(const State& state, const dag::Transition& transition) {
  const RankState& r = state.rank(transition.rank);
  if (transition.kind == dag::Transition::Kind::main) {
    return r.main_blocked && !transition.source;  // a choice (S9) is no early return
  }
  return transition.kind == dag::Transition::Kind::complete && transition.op < r.phase.size() &&
         r.phase[transition.op] == OpPhase::returnable;
}

bool stuck(const System& model, const State& state, const std::vector<dag::Transition>& enabled) {
  for (const dag::Transition& t : enabled) {
    if (!returns_early(state, t)) return false;
  }
  return !finished(model, state);
}

bool stuck(const System& model, const State& state) {
  return stuck(model, state, enabled_transitions(model, state));
}

namespace {

void append_rank_transitions(const System& model, const RankState& r, dag::Rank rank,
                             std::vector<dag::Transition>& transitions) {
  if (main_enabled(model, r, rank)) {
    if (r.main_blocked && !r.main_may_return) {  // in a recv from any source: each choice
      for (const RankState::Choice& c : r.choices) {
        if (c.tag != tag_of(std::nullopt)) continue;
        dag::Transition t{dag::Transition::Kind::main, rank, 0, std::nullopt};
        t.source = c.source;
        transitions.push_back(t);
      }
    } else {
      transitions.push_back(dag::Transition{dag::Transition::Kind::main, rank, 0, std::nullopt});
    }
  }
  for (dag::PoolId pool = 0; pool < r.rules.pools(); ++pool) {
    if (const std::optional<engine::StartChoice> start = r.rules.next_start(pool)) {
      transitions.push_back(dag::Transition{dag::Transition::Kind::claim, rank,
                                            r.op_of_slot.at(start->op.slot), start->thread});
    }
  }
  for (dag::OpId op = 0; op < r.phase.size(); ++op) {
    if (r.phase[op] == OpPhase::claimed) {
      transitions.push_back(dag::Transition{dag::Transition::Kind::issue, rank, op, std::nullopt});
    }
  }
  for (dag::OpId op = 0; op < r.phase.size(); ++op) {
    if (r.phase[op] == OpPhase::running || r.phase[op] == OpPhase::fired ||
        r.phase[op] == OpPhase::returnable) {
      transitions.push_back(
          dag::Transition{dag::Transition::Kind::complete, rank, op, std::nullopt});
    }
  }
  for (const RankState::Choice& c : r.choices) {
    if (const std::optional<dag::OpId> op = op_of_tag(c.tag)) {
      dag::Transition t{dag::Transition::Kind::match, rank, *op, std::nullopt};
      t.source = c.source;
      transitions.push_back(t);
    }
  }
}

}  // namespace

std::vector<dag::Transition> enabled_transitions(const System& model, const State& state) {
  std::vector<dag::Transition> transitions;
  enabled_transitions(model, state, transitions);
  return transitions;
}

void enabled_transitions(const System& model, const State& state,
                         std::vector<dag::Transition>& transitions) {
  transitions.clear();
  for (dag::Rank rank = 0; rank < model.ranks(); ++rank) {
    const RankState& r = state.rank(rank);
    // A rank's transitions depend on its part alone (and the model), so they are kept with it.
    if (!r.enabled.valid) {
      r.enabled.list.clear();
      append_rank_transitions(model, r, rank, r.enabled.list);
      r.enabled.valid = true;
    }
    transitions.insert(transitions.end(), r.enabled.list.begin(), r.enabled.list.end());
  }
}

namespace {

std::optional<comm::Violation> apply_transition(const System& model, State& state,
                                                const dag::Transition& transition) {
  switch (transition.kind) {
    case dag::Transition::Kind::main:
      return apply_main(model, state, transition);
    case dag::Transition::Kind::claim:
      return apply_start(model, state, transition);
    case dag::Transition::Kind::issue:
      return apply_issue(model, state, transition);
    case dag::Transition::Kind::complete:
      apply_complete(model, state, transition);
      return std::nullopt;
    case dag::Transition::Kind::match:
      return apply_match(model, state, transition);
  }
  throw not_enabled(transition, "unknown transition kind");
}

// What a transition advances: its rank's main thread (a collective it blocks in counts half an
// action) or its op's phase. No transition moves either back (a match only advances other parties),
// so every path through the transition system is acyclic; the partial-order reduction's cycle
// condition and the searches' lack of a depth bound rest on it.
std::uint64_t progress_of(const State& state, const dag::Transition& transition) {
  const RankState& r = state.rank(transition.rank);
  if (transition.kind == dag::Transition::Kind::main) {
    return 2 * std::uint64_t{r.pc} + (r.main_blocked ? 1u : 0u);
  }
  return static_cast<std::uint64_t>(r.phase[transition.op]);
}

}  // namespace

std::optional<comm::Violation> apply(const System& model, State& state,
                                     const dag::Transition& transition) {
  if (transition.rank >= model.ranks()) throw not_enabled(transition, "no such rank");
  if (transition.kind != dag::Transition::Kind::main &&
      transition.op >= state.rank(transition.rank).phase.size()) {
    throw not_enabled(transition, "no such op");
  }
  const std::uint64_t before = progress_of(state, transition);
  std::optional<comm::Violation> violation = apply_transition(model, state, transition);
  // Checked on every transition, in release builds too: a transition that advanced nothing would
  // make the state graph cyclic, and the reductions' argument with it void.
  if (!violation && progress_of(state, transition) <= before) {
    throw std::logic_error("rank " + std::to_string(transition.rank) + ": a " +
                           std::string(dag::to_string(transition.kind)) + " transition on op " +
                           std::to_string(transition.op) + " advanced nothing");
  }
  return violation;
}

}  // namespace ordo::checker
