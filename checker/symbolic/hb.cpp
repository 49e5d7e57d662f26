#include "checker/symbolic/hb.hpp"

#include <limits>
#include <stdexcept>
#include <string>
#include <variant>

namespace ordo::checker::symbolic {

namespace {

constexpr EventId none = std::numeric_limits<EventId>::max();

// The accesses a var's FIFO queue still orders against a later submission: the last write, and the
// reads submitted after it (a later write waits for all of them; a later read only for the write).
struct VarQueue {
  std::optional<dag::OpId> last_write;
  std::vector<dag::OpId> reads_since;
};

std::invalid_argument bad(const std::string& what) {
  return std::invalid_argument("happens-before graph: " + what);
}

}  // namespace

EventId HappensBefore::add(EventKind kind, std::uint32_t index) {
  events_.push_back(Event{kind, index});
  preds_.emplace_back();
  return static_cast<EventId>(events_.size() - 1);
}

void HappensBefore::edge(EventId from, EventId to) {
  // Ids are handed out in a topological order; an edge against it would be a cycle.
  if (from >= to) throw std::logic_error("happens-before edge against the event order");
  preds_[to].push_back(from);
  ++edges_;
}

HappensBefore::HappensBefore(const dag::Program& program)
    : start_(program.ops.size(), none),
      complete_(program.ops.size(), none),
      readiness_(program.ops.size(), 0) {
  std::vector<VarQueue> vars(program.vars.size());
  std::vector<dag::OpId> submitted_since_wait_all;  // ops whose completion the next wait_for_all
                                                    // waits for
  // Per pool, the op submitted to it last: the FIFO-dispatch rule orders it before the next one.
  std::vector<std::optional<dag::OpId>> last_in_pool(program.pools.size());
  EventId previous = none;                       // the main thread's latest event
  const auto var_at = [&](dag::VarId v) -> VarQueue& {
    if (v >= vars.size()) throw bad("var index " + std::to_string(v) + " out of range");
    return vars[v];
  };
  for (std::uint32_t k = 0; k < program.main.size(); ++k) {
    const dag::Action& action = program.main[k];
    const EventId m = add(EventKind::main, k);
    main_.push_back(m);
    if (previous != none) edge(previous, m);
    previous = m;
    if (const auto* submit = std::get_if<dag::SubmitAction>(&action)) {
      const dag::OpId o = submit->op;
      if (o >= program.ops.size()) throw bad("op index " + std::to_string(o) + " out of range");
      if (start_[o] != none) throw bad("op '" + program.ops[o].name + "' is submitted twice");
      const dag::Op& op = program.ops[o];
      const EventId s = add(EventKind::start, o);
      const EventId c = add(EventKind::complete, o);
      start_[o] = s;
      complete_[o] = c;
      edge(m, s);
      edge(s, c);
      for (dag::VarId v : op.reads) {
        VarQueue& q = var_at(v);
        if (q.last_write) edge(complete_[*q.last_write], s);
        q.reads_since.push_back(o);
      }
      for (dag::VarId v : op.writes) {
        VarQueue& q = var_at(v);
        if (!q.reads_since.empty()) {
          for (dag::OpId r : q.reads_since) edge(complete_[r], s);
        } else if (q.last_write) {
          edge(complete_[*q.last_write], s);
        }
        q.last_write = o;
        q.reads_since.clear();
      }
      submitted_since_wait_all.push_back(o);
      // What makes `o` ready: its submission and its vars' earlier accesses, the edges so far.
      readiness_[o] = preds_[s].size();
      if (op.pool < program.pools.size()) {
        std::optional<dag::OpId>& before = last_in_pool[op.pool];
        if (before) fifo_edge(program, *before, o, m);
        before = o;
      }
      if (dag::is_collective(op.kind)) {
        if (!op.collective) throw bad("collective op '" + op.name + "' has no collective spec");
        calls_.push_back(
            CallEvents{s, c, o, k, *op.collective, op.kind == dag::OpKind::collective});
      }
    } else if (const auto* w = std::get_if<dag::WaitToReadAction>(&action)) {
      // Writes to one var complete in submit order, so waiting for the last one waits for all.
      const VarQueue& q = var_at(w->var);
      if (q.last_write) edge(complete_[*q.last_write], m);
    } else if (std::holds_alternative<dag::WaitForAllAction>(action)) {
      // Ops submitted before the previous wait_for_all completed before it, so before this one.
      for (dag::OpId o : submitted_since_wait_all) edge(complete_[o], m);
      submitted_since_wait_all.clear();
    } else {
      const auto& c = std::get<dag::CollectiveAction>(action);
      const EventId r = add(EventKind::returned, k);
      edge(m, r);
      previous = r;
      calls_.push_back(CallEvents{m, r, std::nullopt, k, c.collective, true});
    }
  }
  for (dag::OpId o = 0; o < program.ops.size(); ++o) {
    if (start_[o] == none) throw bad("op '" + program.ops[o].name + "' is never submitted");
  }
}

// Lemma 4 of docs/symbolic.md. On a FIFO pool of one thread, op `a`, submitted before `b`, is
// claimed before `b` when it is ready no later than `b`: it joins the run queue first (ops made
// ready by one event join in submit order), the queue pops in ready order, and one thread claims
// one op at a time. The thread is then held by `a` until its issue (an async collective op) or
// its completion (any other op), so `b` starts only after that. `a` is ready no later than `b`
// when every event that makes `a` ready (its submission, its vars' earlier accesses) happens before
// `b`'s submit or at or before an event that makes `b` ready. Only consecutive ops of a pool are
// linked; the chain orders the rest.
void HappensBefore::fifo_edge(const dag::Program& program, dag::OpId a, dag::OpId b,
                              EventId submit_b) {
  const dag::Pool& pool = program.pools[program.ops[b].pool];
  if (pool.kind != dag::PoolKind::fifo || pool.threads != 1) return;
  const std::vector<EventId>& b_preds = preds_[start_[b]];
  std::vector<EventId> b_ready(b_preds.begin(), b_preds.begin() + static_cast<std::ptrdiff_t>(
                                                                      readiness_[b]));
  b_ready.push_back(submit_b);
  const std::vector<bool> no_later = ancestors(b_ready);
  const std::vector<EventId>& preds = preds_[start_[a]];
  for (std::size_t i = 0; i < readiness_[a]; ++i) {
    if (!no_later[preds[i]]) return;
  }
  const bool frees_at_issue = program.ops[a].kind == dag::OpKind::async_collective;
  edge(frees_at_issue ? start_[a] : complete_[a], start_[b]);
  ++fifo_edges_;
}

bool HappensBefore::reaches(EventId from, EventId to) const {
  if (from >= events() || to >= events()) throw std::out_of_range("no such event");
  if (from == to) return true;
  if (from > to) return false;
  return ancestors(to)[from];
}

std::vector<bool> HappensBefore::ancestors(EventId target) const {
  return ancestors(std::vector<EventId>{target});
}

std::vector<bool> HappensBefore::ancestors(const std::vector<EventId>& targets) const {
  std::vector<bool> seen(events(), false);
  std::vector<EventId> todo = targets;
  for (EventId t : targets) seen.at(t) = true;
  while (!todo.empty()) {
    const EventId e = todo.back();
    todo.pop_back();
    for (EventId p : preds_[e]) {
      if (!seen[p]) {
        seen[p] = true;
        todo.push_back(p);
      }
    }
  }
  return seen;
}

}  // namespace ordo::checker::symbolic
