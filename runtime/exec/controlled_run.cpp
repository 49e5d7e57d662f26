#include "runtime/exec/controlled_run.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>

#include "runtime/engine/errors.hpp"
#include "runtime/exec/controlled_run_state.hpp"

namespace ordo::exec {

namespace {

std::uint64_t key_of(engine::OpHandle h) { return (std::uint64_t{h.slot} << 32) | h.generation; }

std::string what_of(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

}  // namespace

ControlledRun::ControlledRun(const dag::Job& job_in, std::uint32_t ranks, BodyOptions options,
                             comm::Backend backend)
    : job_(comm::launch_view(job_in, backend)) {
  const dag::Job& job = job_;
  if (job.ranks && *job.ranks != ranks) {
    throw std::invalid_argument("the job is for " + std::to_string(*job.ranks) + " ranks, not " +
                                std::to_string(ranks));
  }
  // Calls whose needs are met wait for the schedule to return them (an early return is a
  // transition, as in the checker) or for their match.
  world_ = std::make_unique<comm::sim::SimWorld>(
      ranks, job.comms, backend, comm::sim::ReturnPolicy{comm::sim::Returns::held, 0});
  const std::vector<const dag::Program*> programs = dag::programs_by_rank(job, ranks);
  for (dag::Rank r = 0; r < ranks; ++r) {
    auto run = std::make_unique<RankRun>();
    run->rank = r;
    run->program = programs[r];
    if (run->program == nullptr) {
      throw std::invalid_argument("no program covers rank " + std::to_string(r));
    }
    auto scheduler = std::make_unique<engine::ControlledScheduler>();
    run->scheduler = scheduler.get();
    engine::EngineConfig config;
    config.pools = run->program->pools;
    run->engine = std::make_unique<engine::Engine>(std::move(config), std::move(scheduler));
    run->executor = std::make_unique<Executor>(*run->engine, world_->rank(r), job.comms, options);
    for (const dag::Var& v : run->program->vars) run->executor->add_var(v);
    run->handles.resize(run->program->ops.size());
    run->may_race = comm::may_race(*run->program);
    ranks_.push_back(std::move(run));
  }
}

ControlledRun::~ControlledRun() {
  // Engines first: their in-flight ops hold completion handles the world may still call.
  for (auto& r : ranks_) {
    r->executor.reset();
    r->engine.reset();
  }
}

bool ControlledRun::main_enabled(const RankRun& r) const {
  if (r.failure || r.in_collective || r.pc >= r.program->main.size()) return false;
  const dag::Action& action = r.program->main[r.pc];
  if (const auto* w = std::get_if<dag::WaitToReadAction>(&action)) {
    return r.engine->can_read(r.executor->handle(w->var));
  }
  if (std::holds_alternative<dag::WaitForAllAction>(action)) return r.engine->all_done();
  return true;
}

void ControlledRun::sync_transitions(const RankRun& r, std::vector<dag::Transition>& out) const {
  if (main_enabled(r)) {
    out.push_back(dag::Transition{dag::Transition::Kind::main, r.rank, 0, std::nullopt});
  }
  for (const engine::Decision& d : r.scheduler->legal_decisions()) {
    using Kind = dag::Transition::Kind;
    if (const auto* s = std::get_if<engine::Start>(&d)) {
      out.push_back(dag::Transition{Kind::claim, r.rank, r.op_of.at(key_of(s->op)), s->thread});
    } else if (const auto* i = std::get_if<engine::Issue>(&d)) {
      out.push_back(dag::Transition{Kind::issue, r.rank, r.op_of.at(key_of(i->op)), std::nullopt});
    } else {
      const auto& c = std::get<engine::Complete>(d);
      out.push_back(
          dag::Transition{Kind::complete, r.rank, r.op_of.at(key_of(c.op)), std::nullopt});
    }
  }
}

void ControlledRun::early_returns(const RankRun& r, std::vector<dag::Transition>& out) const {
  for (const comm::sim::HeldReturn& held : world_->held_returns(r.rank)) {
    if (held.issuer == "main") {
      if (r.in_collective) {
        out.push_back(dag::Transition{dag::Transition::Kind::main, r.rank, 0, std::nullopt});
      }
      continue;
    }
    for (dag::OpId op = 0; op < r.program->ops.size(); ++op) {
      if (r.program->ops[op].name == held.issuer) {
        out.push_back(dag::Transition{dag::Transition::Kind::complete, r.rank, op, std::nullopt});
        break;
      }
    }
  }
}

void ControlledRun::message_choices(const RankRun& r, std::vector<dag::Transition>& out) const {
  for (const comm::sim::MessageChoice& choice : world_->message_choices(r.rank)) {
    dag::Transition t{dag::Transition::Kind::main, r.rank, 0, std::nullopt};
    t.source = choice.source;
    if (choice.issuer == "main") {
      if (r.in_collective) out.push_back(t);
      continue;
    }
    for (dag::OpId op = 0; op < r.program->ops.size(); ++op) {
      if (r.program->ops[op].name == choice.issuer) {
        t.kind = dag::Transition::Kind::match;
        t.op = op;
        out.push_back(t);
        break;
      }
    }
  }
}

std::vector<dag::Transition> ControlledRun::legal_transitions() const {
  std::vector<dag::Transition> transitions;
  if (world_->aborted() || race_) return transitions;
  for (const auto& r : ranks_) {
    if (r->failure) continue;
    sync_transitions(*r, transitions);
    early_returns(*r, transitions);
    message_choices(*r, transitions);
  }
  return transitions;
}

bool ControlledRun::any_sync_transition() const {
  if (world_->aborted() || race_) return false;
  std::vector<dag::Transition> transitions;
  for (const auto& r : ranks_) {
    if (r->failure) continue;
    sync_transitions(*r, transitions);
    message_choices(*r, transitions);  // a recv taking a message is no early return
  }
  return !transitions.empty();
}

bool ControlledRun::returns_early(const dag::Transition& transition) const {
  if (transition.rank >= ranks_.size()) return false;
  const RankRun& r = *ranks_[transition.rank];
  std::vector<dag::Transition> early;
  early_returns(r, early);
  return std::find(early.begin(), early.end(), transition) != early.end();
}

void ControlledRun::take(const dag::Transition& s) {
  if (s.rank >= ranks_.size()) {
    throw engine::ScheduleError("no rank " + std::to_string(s.rank) + " in this run");
  }
  RankRun& r = *ranks_[s.rank];
  if (s.source) {  // a recv from any source takes the message of s.source (S9)
    if (s.kind != dag::Transition::Kind::main && s.kind != dag::Transition::Kind::match) {
      throw engine::ScheduleError("rank " + std::to_string(r.rank) + ": a " +
                                  std::string(dag::to_string(s.kind)) + " names a source");
    }
    if (s.kind == dag::Transition::Kind::match && s.op >= r.program->ops.size()) {
      throw engine::ScheduleError("rank " + std::to_string(r.rank) + ": no op " +
                                  std::to_string(s.op));
    }
    const std::string issuer =
        s.kind == dag::Transition::Kind::main ? std::string("main") : r.program->ops[s.op].name;
    try {
      world_->take_message(r.rank, issuer, *s.source);
    } catch (const std::logic_error& e) {
      throw engine::ScheduleError(e.what());
    }
    trace_.push_back(s);
    return;
  }
  if (s.kind == dag::Transition::Kind::match) {
    throw engine::ScheduleError("rank " + std::to_string(r.rank) + ": a match names no source");
  }
  if (returns_early(s)) {
    // The call returns before its match: its completion reaches the main thread or the op now.
    const std::string issuer =
        s.kind == dag::Transition::Kind::main ? std::string("main") : r.program->ops[s.op].name;
    world_->return_now(r.rank, issuer);
    if (s.kind == dag::Transition::Kind::complete) {
      touches_end(r, std::uint64_t{s.op} + 1);
      r.scheduler->apply(engine::Complete{*r.handles.at(s.op)});
    }
    trace_.push_back(s);
    return;
  }
  if (s.kind == dag::Transition::Kind::main) {
    if (!main_enabled(r)) {
      throw engine::ScheduleError("rank " + std::to_string(r.rank) +
                                  ": the main thread cannot act now (" + describe(s) + ")");
    }
    if (starts_a_race(r, s)) return;
    take_main(r);
  } else {
    if (s.op >= r.handles.size() || !r.handles[s.op]) {
      throw engine::ScheduleError("rank " + std::to_string(r.rank) + ": op " +
                                  std::to_string(s.op) + " has not been submitted");
    }
    const engine::OpHandle h = *r.handles[s.op];
    if (s.kind != dag::Transition::Kind::complete && starts_a_race(r, s)) return;
    if (s.kind == dag::Transition::Kind::claim) {
      r.scheduler->apply(engine::Start{r.program->ops[s.op].pool, h, s.thread});
    } else if (s.kind == dag::Transition::Kind::issue) {
      r.scheduler->apply(engine::Issue{h});
    } else {
      touches_end(r, std::uint64_t{s.op} + 1);
      r.scheduler->apply(engine::Complete{h});
    }
  }
  trace_.push_back(s);
}

void ControlledRun::take_main(RankRun& r) {
  const dag::Action& action = r.program->main[r.pc];
  try {
    if (const auto* p = std::get_if<dag::SubmitAction>(&action)) {
      r.executor->submit(r.program->ops.at(p->op));
      const engine::OpHandle h = r.executor->last_submitted();
      r.handles[p->op] = h;
      r.op_of[key_of(h)] = p->op;
      ++r.pc;
    } else if (const auto* w = std::get_if<dag::WaitToReadAction>(&action)) {
      ++r.pc;
      r.engine->wait_to_read(r.executor->handle(w->var));
    } else if (std::holds_alternative<dag::WaitForAllAction>(action)) {
      ++r.pc;
      r.engine->wait_for_all();
    } else {
      r.in_collective = true;
      RankRun* run = &r;
      r.executor->issue_collective(std::get<dag::CollectiveAction>(action),
                                   [run](std::exception_ptr error) {
                                     touches_end(*run, 0);
                                     run->in_collective = false;
                                     ++run->pc;
                                     if (error) run->failure = "main collective: " + what_of(error);
                                   });
    }
  } catch (const engine::ScheduleError&) {
    throw;
  } catch (...) {
    r.failure =
        "main thread at action " + std::to_string(r.pc) + ": " + what_of(std::current_exception());
  }
}

std::optional<comm::Violation> ControlledRun::violation() const {
  if (race_) return comm::Violation{*race_};
  return world_->violation();
}

bool ControlledRun::starts_a_race(RankRun& r, const dag::Transition& s) {
  if (!r.may_race) return false;
  const dag::Program& p = *r.program;
  // The rank's place in the call's communicator: its root decides how the call uses its buffer.
  const auto member = [&](const dag::Collective& call) -> comm::Member {
    const dag::Communicator& c = job_.comms.at(call.comm);
    if (!c.members) return {r.rank, ranks_.size()};
    const auto at = std::find(c.members->begin(), c.members->end(), r.rank);
    return {static_cast<std::size_t>(at - c.members->begin()), c.members->size()};
  };
  comm::PartyTouches starting;
  if (s.kind == dag::Transition::Kind::main) {
    const auto* call = std::get_if<dag::CollectiveAction>(&p.main.at(r.pc));
    if (call == nullptr) return false;
    starting = comm::main_touches(p, static_cast<std::uint32_t>(r.pc), member(call->collective));
  } else {
    const dag::Op& op = p.ops.at(s.op);
    // A compute or copy body touches from its claim, a collective op's from its issue.
    if (dag::is_collective(op.kind) != (s.kind == dag::Transition::Kind::issue)) return false;
    starting = comm::op_touches(p, s.op, op.collective ? member(*op.collective) : comm::Member{});
  }
  const comm::CallOrder order = comm::stream_ordered(world_->backend())
                                    ? comm::CallOrder::one_stream
                                    : comm::CallOrder::concurrent;
  if (std::optional<comm::BufferRace> race =
          r.touches.start(r.rank, p, job_.comms, starting, order)) {
    race_ = std::move(*race);
    trace_.push_back(s);
    return true;
  }
  return false;
}

void ControlledRun::touches_end(RankRun& r, std::uint64_t party) {
  if (r.may_race) r.touches.end(party);
}

bool ControlledRun::finished() const {
  for (const auto& r : ranks_) {
    if (r->failure || r->in_collective || r->pc < r->program->main.size() ||
        !r->engine->all_done()) {
      return false;
    }
  }
  return !world_->has_unmatched_calls();
}

Buffers& ControlledRun::buffers(dag::Rank rank) { return ranks_.at(rank)->executor->buffers(); }

const dag::Program& ControlledRun::program(dag::Rank rank) const {
  return *ranks_.at(rank)->program;
}

}  // namespace ordo::exec
