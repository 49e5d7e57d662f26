#include "checker/symbolic/guided_run.hpp"

#include <chrono>
#include <map>
#include <queue>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "checker/system/deadlock.hpp"
#include "checker/system/state.hpp"
#include "checker/system/transitions.hpp"
#include "runtime/bounds/seconds.hpp"

namespace ordo::checker::symbolic {

namespace {

using Clock = std::chrono::steady_clock;

// A transition that was enabled when offered; it is checked again before it is taken, since later
// transitions may have taken its place (a pool's head changes, a thread fills, the main pc moves).
struct Candidate {
  std::uint64_t key = 0;
  dag::Rank rank = 0;
  dag::Transition::Kind kind = dag::Transition::Kind::main;
  std::uint32_t index = 0;  // the op id; for a main transition, the main pc
  friend bool operator>(const Candidate& a, const Candidate& b) {
    return std::tie(a.key, a.rank, a.kind, a.index) > std::tie(b.key, b.rank, b.kind, b.index);
  }
};

struct Issued {
  dag::Rank rank = 0;
  std::optional<dag::OpId> op;  // nullopt: the main thread
};

class Run {
 public:
  Run(const System& model, const std::vector<const HappensBefore*>& hb_of_rank, const Plan& plan,
      double seconds)
      : model_(model),
        hb_(hb_of_rank),
        plan_(plan),
        deadline_(bounds::deadline_after(Clock::now(), seconds)),
        begin_(Clock::now()),
        state_(initial_state(model)),
        pending_(model.comms()) {
    if (hb_.size() != model.ranks() || plan_.profile_of_rank.size() != model.ranks()) {
      throw std::invalid_argument("guided run: the plan does not cover every rank");
    }
    for (dag::Rank r = 0; r < model.ranks(); ++r) {
      if (hb_[r] == nullptr || plan_.profile_of_rank[r] >= plan_.profiles.size() ||
          plan_.profiles[plan_.profile_of_rank[r]].size() != hb_[r]->events()) {
        throw std::invalid_argument("guided run: rank " + std::to_string(r) +
                                    " has no profile of its program's events");
      }
    }
    result_.result.ranks = model.ranks();
  }

  GuidedResult go() {
    for (dag::Rank r = 0; r < model_.ranks(); ++r) offer_rank(r);
    std::uint32_t countdown = 0;
    while (!heap_.empty()) {
      if (++countdown == 4096) {
        countdown = 0;
        if (Clock::now() >= deadline_) return end(RunEnd::out_of_time);
      }
      const Candidate c = heap_.top();
      heap_.pop();
      if (!still_enabled(c)) continue;
      if (std::optional<comm::Violation> v = take(c)) return violation(std::move(*v));
    }
    if (finished(model_, state_)) return end(RunEnd::finished);
    if (!stuck(model_, state_)) return end(RunEnd::stopped);
    return violation(describe_deadlock(model_, state_));
  }

 private:
  std::uint64_t preference(dag::Rank rank, EventId e) const {
    return plan_.profiles[plan_.profile_of_rank[rank]][e];
  }

  void offer(dag::Rank rank, dag::Transition::Kind kind, std::uint32_t index, EventId e) {
    const std::uint64_t key = preference(rank, e);
    if (key != never) heap_.push(Candidate{key, rank, kind, index});
  }

  // A guided run follows the synchronising reading (C4): a call returns at its match, never early,
  // so the run is one execution of every MPI library, and its deadlocks are deadlocks.
  bool main_can_act(dag::Rank rank) const {
    const RankState& r = state_.rank(rank);
    return !r.main_blocked && main_enabled(model_, r, rank);
  }

  // Offers what the rank's main thread and pools can do now; completions are offered when an op
  // becomes completable (it starts running, or its call matches).
  void offer_rank(dag::Rank rank) {
    const RankState& r = state_.rank(rank);
    if (main_can_act(rank)) offer(rank, dag::Transition::Kind::main, r.pc, hb_[rank]->main(r.pc));
    for (dag::PoolId pool = 0; pool < r.rules.pools(); ++pool) {
      const std::optional<engine::OpHandle> next = r.rules.peek_next(pool);
      if (next && r.rules.lowest_free_thread(pool)) {
        const dag::OpId op = r.op_of_slot.at(next->slot);
        offer(rank, dag::Transition::Kind::claim, op, hb_[rank]->start(op));
      }
    }
  }

  bool still_enabled(const Candidate& c) const {
    const RankState& r = state_.rank(c.rank);
    switch (c.kind) {
      case dag::Transition::Kind::main:
        return r.pc == c.index && main_can_act(c.rank);
      case dag::Transition::Kind::claim: {
        if (r.phase[c.index] != OpPhase::submitted) return false;
        const dag::PoolId pool = model_.program(c.rank).ops[c.index].pool;
        const std::optional<engine::OpHandle> next = r.rules.peek_next(pool);
        return next && *next == r.handle[c.index] && r.rules.lowest_free_thread(pool);
      }
      case dag::Transition::Kind::issue:
        return r.phase[c.index] == OpPhase::claimed;
      case dag::Transition::Kind::complete:
        return r.phase[c.index] == OpPhase::running || r.phase[c.index] == OpPhase::fired;
      case dag::Transition::Kind::match:  // never offered: a job with messages is not symbolic's
        return false;
    }
    return false;
  }

  // The call a transition issues, if any: its communicator and the issuer.
  const dag::Collective* call_of(const dag::Transition& transition) const {
    const dag::Program& p = model_.program(transition.rank);
    if (transition.kind == dag::Transition::Kind::main) {
      const auto* c = std::get_if<dag::CollectiveAction>(&p.main[state_.rank(transition.rank).pc]);
      return c == nullptr ? nullptr : &c->collective;
    }
    if (transition.kind == dag::Transition::Kind::issue) return &*p.ops[transition.op].collective;
    const dag::OpKind kind = p.ops[transition.op].kind;
    if (transition.kind == dag::Transition::Kind::claim && dag::is_collective(kind) &&
        !engine::body_is_own_transition(kind)) {
      return &*p.ops[transition.op].collective;  // claim and issue are one transition
    }
    return nullptr;
  }

  std::optional<comm::Violation> take(const Candidate& c) {
    dag::Transition transition{c.kind, c.rank, c.kind == dag::Transition::Kind::main ? 0 : c.index,
                               std::nullopt};
    if (c.kind == dag::Transition::Kind::claim) {
      transition.thread =
          state_.rank(c.rank).rules.lowest_free_thread(model_.program(c.rank).ops[c.index].pool);
    }
    const dag::Collective* call = call_of(transition);
    std::uint64_t seq = 0;
    if (call != nullptr) {
      const std::int64_t member = model_.member_of(call->comm, c.rank);
      if (member >= 0) {
        seq = state_.comm(call->comm).next_seq(static_cast<std::size_t>(member));
      }
    }
    result_.result.witness.push_back(transition);
    if (std::optional<comm::Violation> v = apply(model_, state_, transition)) return v;
    if (call != nullptr) {
      auto& at_seq = pending_[call->comm][seq];
      const bool by_op = c.kind != dag::Transition::Kind::main;
      at_seq.push_back(Issued{c.rank, by_op ? std::optional(c.index) : std::nullopt});
      if (state_.comm(call->comm).slots().count(seq) == 0) matched(call->comm, seq);
    }
    // Read after the transition: a write may have replaced the rank's shared state.
    const RankState& r = state_.rank(c.rank);
    if (c.kind == dag::Transition::Kind::claim && r.phase[c.index] == OpPhase::running) {
      offer(c.rank, dag::Transition::Kind::complete, c.index, hb_[c.rank]->complete(c.index));
    }
    // The model orders a collective op's issue by its start event; the claim is taken when the op
    // reaches its pool's head, so later claims can still issue first, as on the runtime (S3).
    if (c.kind == dag::Transition::Kind::claim && r.phase[c.index] == OpPhase::claimed) {
      offer(c.rank, dag::Transition::Kind::issue, c.index, hb_[c.rank]->start(c.index));
    }
    offer_rank(c.rank);
    return std::nullopt;
  }

  // Every member issued call `seq`: ops may complete, main threads go on.
  void matched(dag::CommId comm, std::uint64_t seq) {
    const auto it = pending_[comm].find(seq);
    for (const Issued& issued : it->second) {
      if (issued.op) {
        offer(issued.rank, dag::Transition::Kind::complete, *issued.op,
              hb_[issued.rank]->complete(*issued.op));
      } else {
        offer_rank(issued.rank);
      }
    }
    pending_[comm].erase(it);
  }

  GuidedResult violation(comm::Violation v) {
    result_.end = RunEnd::violation;
    result_.result.verdict = Verdict::unsafe;
    result_.result.property = property_of(v);
    result_.result.violation = std::move(v);
    return end(RunEnd::violation);
  }

  GuidedResult end(RunEnd how) {
    result_.end = how;
    result_.transitions = result_.result.witness.size();
    if (how != RunEnd::violation) result_.result.witness.clear();
    Stats& s = result_.result.stats;
    s.transitions = result_.transitions;
    s.depth_max = result_.transitions;
    s.states = result_.transitions + 1;
    s.seconds = std::chrono::duration<double>(Clock::now() - begin_).count();
    s.states_per_second = s.seconds > 0.0 ? static_cast<double>(s.states) / s.seconds : 0.0;
    return std::move(result_);
  }

  const System& model_;
  const std::vector<const HappensBefore*>& hb_;
  const Plan& plan_;
  Clock::time_point deadline_;
  Clock::time_point begin_;
  State state_;
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap_;
  std::vector<std::map<std::uint64_t, std::vector<Issued>>> pending_;  // by comm, by sequence
  GuidedResult result_;
};

}  // namespace

GuidedResult guided_run(const System& model, const std::vector<const HappensBefore*>& hb_of_rank,
                        const Plan& plan, double seconds) {
  return Run(model, hb_of_rank, plan, seconds).go();
}

}  // namespace ordo::checker::symbolic
