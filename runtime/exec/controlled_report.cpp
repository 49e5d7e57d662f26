// How a controlled run speaks: one line per transition, and what ended it.
#include <limits>
#include <random>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "runtime/comm/rules/call.hpp"
#include "runtime/dag/action_text.hpp"
#include "runtime/exec/controlled_run.hpp"
#include "runtime/exec/controlled_run_state.hpp"

namespace ordo::exec {

std::string ControlledRun::describe(const dag::Transition& s) const {
  const std::string rank = "rank " + std::to_string(s.rank) + ": ";
  if (s.rank >= ranks_.size()) return rank + "(no such rank)";
  const dag::Program& p = *ranks_[s.rank]->program;
  const std::string from =
      s.source ? ", taking the message of rank " + std::to_string(*s.source) : "";
  if (s.kind == dag::Transition::Kind::main) return rank + main_line(*ranks_[s.rank]) + from;
  const std::string op =
      s.op < p.ops.size() ? "'" + p.ops[s.op].name + "'" : "op " + std::to_string(s.op);
  if (s.kind == dag::Transition::Kind::complete) return rank + "complete " + op;
  if (s.kind == dag::Transition::Kind::match) return rank + "match " + op + from;
  if (s.kind == dag::Transition::Kind::issue) return rank + "issue " + op;
  std::string line = rank + "claim " + op;
  if (s.op < p.ops.size()) line += " on pool '" + p.pools.at(p.ops[s.op].pool).name + "'";
  if (s.thread) line += " thread " + std::to_string(*s.thread);
  return line;
}

std::string ControlledRun::main_line(const RankRun& r) const {
  return dag::describe_main(*r.program, job_.comms, static_cast<std::uint32_t>(r.pc),
                            r.in_collective);
}

comm::RankAccount ControlledRun::account(const RankRun& r) const {
  comm::RankAccount a;
  a.rank = r.rank;
  a.finished = !r.in_collective && r.pc >= r.program->main.size() && r.engine->all_done();
  if (a.finished) return a;
  // The engine as its rules hold it, every op and var of it: the same fields the checker reads
  // from its copy of the rules.
  engine::SnapshotBounds everything;
  everything.ops_max = std::numeric_limits<std::uint32_t>::max();
  everything.vars_max = std::numeric_limits<std::uint32_t>::max();
  everything.queue_max = 0;
  const std::optional<engine::EngineSnapshot> engine = r.engine->snapshot({}, everything);
  if (!engine) throw std::logic_error("a controlled run's engine lock is taken");
  const dag::Program& p = *r.program;
  a.main = comm::main_wait(
      r.rank, p, job_.comms, static_cast<std::uint32_t>(r.pc), r.in_collective,
      [&](dag::VarId var) -> std::optional<std::pair<std::uint64_t, std::uint64_t>> {
        for (const engine::SnapshotVar& v : engine->vars) {
          if (var < p.vars.size() && v.name == p.vars[var].name) {
            return std::pair(v.writes_completed, v.writes_submitted);
          }
        }
        return std::nullopt;
      },
      engine->ops_incomplete);
  // The live ops by name (names are unique within a program), listed in program op order.
  std::unordered_map<std::string_view, const engine::SnapshotOp*> live;
  for (const engine::SnapshotOp& op : engine->ops) live.emplace(op.name, &op);
  for (dag::OpId id = 0; id < p.ops.size(); ++id) {
    const dag::Op& o = p.ops[id];
    const auto it = live.find(o.name);
    if (!r.handles[id] || it == live.end()) continue;
    const engine::SnapshotOp& s = *it->second;
    comm::OpWait w;
    w.name = o.name;
    w.pool = s.pool;
    w.thread = s.thread;
    if (s.state == "waiting") {
      w.state = comm::OpWait::State::waiting_for_vars;
      w.grants_pending = s.accesses_pending;
    } else if (s.state == "ready") {
      w.state = comm::OpWait::State::ready;
    } else if (o.collective) {
      // A started collective op in a stuck state has issued its call: a claimed one could issue.
      w.state = comm::OpWait::State::in_call;
      w.call = comm::call_of(*o.collective);
      w.comm_name = job_.comms.at(o.collective->comm).name;
    } else {
      w.state = comm::OpWait::State::running;
    }
    a.ops.push_back(std::move(w));
  }
  return a;
}

std::optional<comm::Deadlock> ControlledRun::deadlock() const {
  if (world_->aborted() || rank_failure() || finished() || any_sync_transition()) {
    return std::nullopt;
  }
  std::vector<comm::RankAccount> ranks;
  for (const auto& r : ranks_) ranks.push_back(account(*r));
  return world_->describe_deadlock(std::move(ranks));
}

std::optional<std::string> ControlledRun::rank_failure() const {
  for (const auto& r : ranks_) {
    if (r->failure) return "rank " + std::to_string(r->rank) + ": " + *r->failure;
  }
  return std::nullopt;
}

std::optional<RunOutcome> ControlledRun::outcome() const {
  const auto transitions = static_cast<std::uint64_t>(trace_.size());
  if (const auto v = violation()) {
    return RunOutcome{RunEnd::violation, transitions, comm::describe(*v)};
  }
  if (const auto f = rank_failure()) return RunOutcome{RunEnd::rank_failed, transitions, *f};
  if (finished()) return RunOutcome{RunEnd::finished, transitions, {}};
  if (const auto d = deadlock()) {
    return RunOutcome{RunEnd::deadlock, transitions, comm::describe(comm::Violation{*d})};
  }
  return std::nullopt;
}

RunOutcome run_random_schedule(ControlledRun& run, std::uint64_t seed,
                               std::uint64_t transitions_max) {
  std::mt19937_64 rng(seed);
  for (std::uint64_t i = 0; i < transitions_max; ++i) {
    if (auto end = run.outcome()) return *end;
    const std::vector<dag::Transition> transitions = run.legal_transitions();
    std::uniform_int_distribution<std::size_t> pick(0, transitions.size() - 1);
    run.take(transitions[pick(rng)]);
  }
  if (auto end = run.outcome()) return *end;
  return RunOutcome{RunEnd::transition_limit, transitions_max,
                    "no end after " + std::to_string(transitions_max) + " transitions"};
}

}  // namespace ordo::exec
