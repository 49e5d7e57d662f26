// How a controlled run speaks: one line per transition, and what ended it.
#include <random>

#include "runtime/comm/rules/call.hpp"
#include "runtime/dag/action_text.hpp"
#include "runtime/exec/controlled_run.hpp"
#include "runtime/exec/controlled_run_state.hpp"

namespace ordo::exec {

std::string ControlledRun::describe(const dag::Transition& s) const {
  const std::string rank = "rank " + std::to_string(s.rank) + ": ";
  if (s.rank >= ranks_.size()) return rank + "(no such rank)";
  const dag::Program& p = *ranks_[s.rank]->program;
  if (s.kind == dag::Transition::Kind::main) return rank + main_line(*ranks_[s.rank]);
  const std::string op =
      s.op < p.ops.size() ? "'" + p.ops[s.op].name + "'" : "op " + std::to_string(s.op);
  if (s.kind == dag::Transition::Kind::complete) return rank + "complete " + op;
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

std::optional<comm::Deadlock> ControlledRun::deadlock() const {
  if (world_->aborted() || rank_failure() || finished() || !legal_transitions().empty()) {
    return std::nullopt;
  }
  comm::Deadlock d;
  for (const auto& r : ranks_) {
    if (r->in_collective || r->pc < r->program->main.size() || !r->engine->all_done()) {
      d.ranks_blocked.push_back(r->rank);
    }
    d.waits.push_back("rank " + std::to_string(r->rank) + ": " + main_line(*r));
    for (const std::string& op : r->scheduler->running_ops()) {
      d.waits.push_back("rank " + std::to_string(r->rank) + ": " + op);
    }
  }
  for (const std::string& line : world_->pending_calls()) d.waits.push_back(line);
  return d;
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
