#include "runtime/engine/controlled_scheduler.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>

#include "runtime/engine/core.hpp"
#include "runtime/engine/errors.hpp"

namespace ordo::engine {

void ControlledScheduler::attach(EngineCore& core) {
  assert(core_ == nullptr);
  core_ = &core;
}

// Ready ops wait for the driver's Start and waiters never sleep, so there is nobody to wake.
void ControlledScheduler::on_ready(std::span<const OpHandle> /*ready*/) {}
void ControlledScheduler::on_progress() {}

void ControlledScheduler::on_async_signal([[maybe_unused]] Lock& lock, OpHandle op,
                                          std::exception_ptr error) {
  assert(lock.owns_lock());
  Running& running = running_of(op);
  assert(running.async && !running.completable);
  running.completable = true;
  running.error = std::move(error);
}

void ControlledScheduler::wait([[maybe_unused]] Lock& lock,
                               [[maybe_unused]] const std::function<bool()>& done,
                               const std::string& what, const WaitNeeds& /*needs*/) {
  assert(lock.owns_lock() && !done());
  throw WouldBlock(what +
                   "; under the controlled scheduler this would block forever: take "
                   "Start/Complete decisions until it holds (see can_read, all_done)");
}

// Nothing runs by itself: ops started and not completed are reported abandoned by the engine.
void ControlledScheduler::drain() { assert(core_ != nullptr); }

std::vector<Decision> ControlledScheduler::legal_decisions() const {
  const std::lock_guard<std::mutex> lock(core_->mutex());
  const EngineState& rules = core_->rules();
  std::vector<Decision> decisions;
  for (dag::PoolId pool = 0; pool < rules.pools(); ++pool) {
    if (const std::optional<StartChoice> start = rules.next_start(pool)) {
      decisions.emplace_back(Start{pool, start->op, start->thread});
    }
  }
  for (const Running& running : running_) {
    if (running.unrun) decisions.emplace_back(Issue{running.op});
  }
  for (const Running& running : running_) {
    if (running.completable) decisions.emplace_back(Complete{running.op});
  }
  return decisions;
}

void ControlledScheduler::apply(const Decision& decision) {
  EngineCore::Lock lock(core_->mutex());
  if (const Start* start_decision = std::get_if<Start>(&decision)) {
    start(lock, *start_decision);
  } else if (const Issue* issue_decision = std::get_if<Issue>(&decision)) {
    issue(lock, *issue_decision);
  } else {
    complete(std::get<Complete>(decision));
  }
}

void ControlledScheduler::start(Lock& lock, const Start& decision) {
  const std::uint32_t thread = check_start(decision);
  std::optional<Claim> claim = core_->claim(decision.pool, thread);
  assert(claim && claim->started.op == decision.op);
  trace_.emplace_back(Start{decision.pool, decision.op, thread});
  if (claim->started.skipped) {
    claim.reset();  // the function dies outside the lock
    return;
  }
  const OpHandle op = decision.op;
  const bool async = static_cast<bool>(claim->task.async);
  running_.push_back(Running{op, async, !async, nullptr, std::nullopt});
  const OpSlot* slot = core_->rules().find(op);
  assert(slot != nullptr);
  if (body_is_own_transition(slot->desc->kind)) {
    running_.back().unrun = std::move(claim);
    return;
  }
  run_body(lock, *claim);
  lock.unlock();
  claim.reset();  // the function dies outside the lock
  lock.lock();
}

void ControlledScheduler::issue(Lock& lock, const Issue& decision) {
  Running* running = find_running(decision.op);
  if (running == nullptr || !running->unrun) {
    throw ScheduleError("cannot issue op " + op_name(decision.op) +
                        ": it is not claimed with its body still to run");
  }
  std::optional<Claim> claim = std::move(running->unrun);
  running->unrun.reset();
  trace_.emplace_back(decision);
  run_body(lock, *claim);
  lock.unlock();
  claim.reset();
  lock.lock();
}

// Runs a claimed op's function outside the lock and applies its return under it.
void ControlledScheduler::run_body(Lock& lock, Claim& claim) {
  const OpHandle op = claim.started.op;
  const bool async = static_cast<bool>(claim.task.async);
  lock.unlock();
  std::exception_ptr error = core_->execute(claim);
  lock.lock();
  if (async) {
    core_->thread_returned(op);  // an async op does not hold its thread while in flight
    return;
  }
  Running& running = running_of(op);
  assert(running.completable);
  running.error = std::move(error);
}

void ControlledScheduler::complete(const Complete& decision) {
  Running* running = find_running(decision.op);
  if (running == nullptr) {
    throw ScheduleError("cannot complete op " + op_name(decision.op) + ": " +
                        why_not_running(decision.op));
  }
  if (!running->completable) {
    throw ScheduleError("cannot complete async op " + op_name(decision.op) +
                        ": it has not invoked its completion handle yet");
  }
  const std::exception_ptr error = running->error;
  running_.erase(running_.begin() + (running - running_.data()));
  core_->complete(decision.op, error);
  trace_.emplace_back(decision);
  assert(find_running(decision.op) == nullptr);
}

// For ops the scheduler itself started: not finding one is a broken invariant, not a user error.
ControlledScheduler::Running& ControlledScheduler::running_of(OpHandle op) {
  Running* running = find_running(op);
  if (running == nullptr) {
    throw std::logic_error("controlled scheduler lost track of running op " + to_string(op));
  }
  return *running;
}

ControlledScheduler::Running* ControlledScheduler::find_running(OpHandle op) {
  const auto it = std::find_if(running_.begin(), running_.end(),
                               [&](const Running& running) { return running.op == op; });
  return it == running_.end() ? nullptr : &*it;
}

}  // namespace ordo::engine
