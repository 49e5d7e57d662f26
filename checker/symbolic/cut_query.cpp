#include "checker/symbolic/cut_query.hpp"

#include <string>

#include "checker/symbolic/order_queries.hpp"
#include "runtime/comm/rules/completion.hpp"

namespace ordo::checker::symbolic {

namespace {

class CutEncoding {
 public:
  CutEncoding(z3::context& ctx, const CutProblem& problem)
      : ctx_(ctx), problem_(problem), solver_(ctx) {}

  CutAnswer run(double seconds) {
    CutAnswer out;
    declare();
    for (std::uint32_t r = 0; r < problem_.ranks.size(); ++r) rank_constraints(r);
    z3::expr_vector unfinished(ctx_);
    for (const auto& rank : done_) {
      for (const z3::expr& d : rank) unfinished.push_back(!d);
    }
    out.booleans = unfinished.size();
    // A call returned from early may stay unmatched with every event done: under the
    // synchronising reading its issuer is still in it, so that cut is not the end either.
    for (const z3::expr& u : unmatched_) unfinished.push_back(u);
    solver_.add(z3::mk_or(unfinished));
    solver_.set("timeout", timeout_ms(seconds));
    const z3::check_result r = solver_.check();
    if (r == z3::unsat) {
      out.answer = Answer::unsat;
    } else if (r == z3::sat) {
      out.answer = Answer::sat;
      const z3::model m = solver_.get_model();
      for (const auto& rank : done_) {
        std::vector<bool> cut;
        cut.reserve(rank.size());
        for (const z3::expr& d : rank) cut.push_back(m.eval(d, true).is_true());
        out.done.push_back(std::move(cut));
      }
    } else {
      out.reason = solver_.reason_unknown();
    }
    return out;
  }

 private:
  void declare() {
    for (std::uint32_t r = 0; r < problem_.ranks.size(); ++r) {
      const HappensBefore& hb = *problem_.ranks[r].hb;
      std::vector<z3::expr> d;
      d.reserve(hb.events());
      for (EventId e = 0; e < hb.events(); ++e) {
        d.push_back(ctx_.bool_const(("d" + std::to_string(r) + "_" + std::to_string(e)).c_str()));
      }
      done_.push_back(std::move(d));
      std::vector<std::vector<std::uint32_t>> on(problem_.members.size());
      for (dag::CommId c = 0; c < on.size(); ++c) on[c] = calls_on(hb, c);
      calls_on_.push_back(std::move(on));
    }
  }

  // Every member of the call's communicator issued its call of the same sequence number.
  z3::expr matched(const CallEvents& call, std::uint64_t seq) {
    const dag::CommId comm = call.collective.comm;
    if (seq >= problem_.matchable.at(comm)) return ctx_.bool_val(false);
    z3::expr_vector issued(ctx_);
    for (dag::Rank m : problem_.members.at(comm)) {
      const std::vector<std::uint32_t>& theirs = calls_on_.at(m).at(comm);
      if (seq >= theirs.size()) return ctx_.bool_val(false);
      issued.push_back(done_[m][problem_.ranks[m].hb->calls()[theirs[seq]].issue]);
    }
    return z3::mk_and(issued);
  }

  // Whether the call of rank `r` may have returned before its match (docs/semantics.md, C4): the
  // members whose issues it needs issued theirs.
  z3::expr needs_met(std::uint32_t r, const CallEvents& call, std::uint64_t seq) {
    const dag::CommId comm = call.collective.comm;
    const std::vector<dag::Rank>& members = problem_.members.at(comm);
    const comm::Call c = comm::call_of(call.collective);
    std::size_t member = 0;
    while (member < members.size() && members[member] != r) ++member;
    z3::expr_vector needed(ctx_);
    bool never = false;
    const bool met = comm::needs_met(c, member, members.size(), [&](std::size_t m) {
      if (m == member) return true;
      const std::vector<std::uint32_t>& theirs = calls_on_.at(members[m]).at(comm);
      if (seq >= theirs.size()) {
        never = true;
        return false;
      }
      needed.push_back(
          done_[members[m]][problem_.ranks[members[m]].hb->calls()[theirs[seq]].issue]);
      return true;
    });
    if (never || !met) return ctx_.bool_val(false);
    return needed.empty() ? ctx_.bool_val(true) : z3::mk_and(needed);
  }

  z3::expr all_done(std::uint32_t r, const std::vector<EventId>& events) {
    z3::expr_vector v(ctx_);
    for (EventId e : events) v.push_back(done_[r][e]);
    return z3::mk_and(v);
  }

  void rank_constraints(std::uint32_t r) {
    const dag::Program& program = *problem_.ranks[r].program;
    const HappensBefore& hb = *problem_.ranks[r].hb;
    const std::vector<z3::expr>& d = done_[r];
    for (EventId e = 0; e < hb.events(); ++e) {
      for (EventId p : hb.preds(e)) solver_.add(z3::implies(d[e], d[p]));
    }
    // Collectives complete (an op's completion, a main call's return) once matched: completing
    // is then a transition, and a stuck state has none left. Before the match a call completes
    // only by returning early, once the members it needs issued (C4).
    std::vector<bool> is_call_completion(hb.events(), false);
    for (dag::CommId c = 0; c < calls_on_[r].size(); ++c) {
      const std::vector<std::uint32_t>& on = calls_on_[r][c];
      for (std::uint64_t seq = 0; seq < on.size(); ++seq) {
        const CallEvents& call = hb.calls()[on[seq]];
        const z3::expr is_matched = matched(call, seq);
        solver_.add(z3::implies(is_matched, d[call.complete]));
        solver_.add(z3::implies(d[call.complete], is_matched || needs_met(r, call, seq)));
        unmatched_.push_back(!is_matched);
        is_call_completion[call.complete] = true;
      }
    }
    // A pool is full when blocking collectives hold all its threads; they cannot hold more.
    std::vector<z3::expr> full;
    for (dag::PoolId p = 0; p < program.pools.size(); ++p) {
      z3::expr_vector held(ctx_);
      for (dag::OpId o = 0; o < program.ops.size(); ++o) {
        if (program.ops[o].pool == p && program.ops[o].kind == dag::OpKind::collective) {
          held.push_back(d[hb.start(o)] && !d[hb.complete(o)]);
        }
      }
      const std::uint32_t threads = program.pools[p].threads;
      if (held.size() >= threads) {
        solver_.add(z3::atmost(held, threads));
        full.push_back(z3::atleast(held, threads));
      } else {
        full.push_back(ctx_.bool_val(false));
      }
    }
    for (EventId e = 0; e < hb.events(); ++e) {
      if (is_call_completion[e]) continue;
      const Event& ev = hb.event(e);
      const z3::expr enabled = all_done(r, hb.preds(e));
      if (ev.kind == EventKind::start) {
        // Ready and not started: its pool must have no free thread.
        solver_.add(z3::implies(enabled && !d[e], full.at(program.ops.at(ev.index).pool)));
      } else {
        // A main action (submit, wait, issue) or a compute or copy op's completion: enabled once
        // everything before it happened, so a stuck cut has taken it.
        solver_.add(z3::implies(enabled, d[e]));
      }
    }
  }

  z3::context& ctx_;
  const CutProblem& problem_;
  z3::solver solver_;
  std::vector<std::vector<z3::expr>> done_;
  std::vector<std::vector<std::vector<std::uint32_t>>> calls_on_;  // by rank, by comm
  std::vector<z3::expr> unmatched_;  // per call of every rank: it has not matched
};

}  // namespace

CutAnswer check_stuck_cut(z3::context& ctx, const CutProblem& problem, double seconds) {
  return CutEncoding(ctx, problem).run(seconds);
}

}  // namespace ordo::checker::symbolic
