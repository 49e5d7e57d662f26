// Why a controlled decision is illegal, in words a driver can act on: which op, which pool, and
// what the rules would allow instead.
#include <cassert>
#include <string>

#include "runtime/engine/controlled_scheduler.hpp"
#include "runtime/engine/core.hpp"
#include "runtime/engine/errors.hpp"

namespace ordo::engine {

std::string ControlledScheduler::op_name(OpHandle op) const {
  const OpSlot* slot = core_->rules().find(op);
  if (slot == nullptr) return std::string("(").append(to_string(op)).append(")");
  return "'" + slot->desc->name + "' (" + to_string(op) + ")";
}

std::string ControlledScheduler::pool_name(dag::PoolId pool) const {
  return "'" + core_->rules().pool(pool).name + "'";
}

std::string ControlledScheduler::why_not_running(OpHandle op) const {
  const OpSlot* slot = core_->rules().find(op);
  if (slot == nullptr) return "the handle is stale (the op retired, or never existed)";
  if (slot->state == OpState::waiting) return "it has not started; it is waiting for its vars";
  if (slot->state == OpState::ready) {
    return "it has not started; it is in the run queue of pool " + pool_name(slot->desc->pool);
  }
  assert(slot->state == OpState::running);
  return "it is already running";
}

// Returns the thread the op would start on.
std::uint32_t ControlledScheduler::check_start(const Start& decision) const {
  const EngineState& rules = core_->rules();
  const std::string who = "cannot start op " + op_name(decision.op);
  if (decision.pool >= rules.pools()) {
    throw ScheduleError(who + " on pool " + std::to_string(decision.pool) + ": the engine has " +
                        std::to_string(rules.pools()) + " pools");
  }
  const std::string where = who + " on pool " + pool_name(decision.pool);
  const OpSlot* slot = rules.find(decision.op);
  if (slot == nullptr) throw ScheduleError(where + ": " + why_not_running(decision.op));
  if (slot->desc->pool != decision.pool) {
    throw ScheduleError(where + ": the op belongs to pool " + pool_name(slot->desc->pool));
  }
  const std::optional<OpHandle> next = rules.peek_next(decision.pool);
  if (next != decision.op) {
    const std::string state = slot->state == OpState::ready
                                  ? "it is not at the head of the pool's run queue"
                                  : why_not_running(decision.op);
    const std::string head = next ? "the pool would start op " + op_name(*next) + " next"
                                  : "the pool's run queue is empty";
    throw ScheduleError(where + ": " + state + "; " + head);
  }
  const PoolThreads& threads = rules.threads(decision.pool);
  if (decision.thread) {
    const std::uint32_t thread = *decision.thread;
    if (thread >= threads.threads()) {
      throw ScheduleError(where + ": thread " + std::to_string(thread) + " does not exist (the " +
                          "pool has " + std::to_string(threads.threads()) + " threads)");
    }
    if (!threads.is_free(thread)) {
      throw ScheduleError(where + ": thread " + std::to_string(thread) + " is busy running op " +
                          op_name(rules.handle(threads.running(thread))));
    }
    return thread;
  }
  const std::optional<std::uint32_t> free = rules.lowest_free_thread(decision.pool);
  if (!free) {
    std::string busy;
    for (std::uint32_t thread = 0; thread < threads.threads(); ++thread) {
      if (thread > 0) busy.append(", ");
      busy.append(op_name(rules.handle(threads.running(thread))));
    }
    throw ScheduleError(where + ": no free thread; all " + std::to_string(threads.threads()) +
                        " threads are busy running " + busy);
  }
  return *free;
}

std::string ControlledScheduler::describe(const Decision& decision) const {
  const std::lock_guard<std::mutex> lock(core_->mutex());
  if (const Start* start_decision = std::get_if<Start>(&decision)) {
    std::string text = "start " + op_name(start_decision->op) + " on pool ";
    text += start_decision->pool < core_->rules().pools() ? pool_name(start_decision->pool)
                                                          : std::to_string(start_decision->pool);
    if (start_decision->thread) text += " thread " + std::to_string(*start_decision->thread);
    return text;
  }
  if (const Issue* issue_decision = std::get_if<Issue>(&decision)) {
    return "issue " + op_name(issue_decision->op);
  }
  return "complete " + op_name(std::get<Complete>(decision).op);
}

std::vector<std::string> ControlledScheduler::running_ops() const {
  const std::lock_guard<std::mutex> lock(core_->mutex());
  std::vector<std::string> lines;
  for (const Running& r : running_) {
    const OpSlot* slot = core_->rules().find(r.op);
    if (slot == nullptr) continue;
    std::string line = op_name(r.op) + " running on pool " + pool_name(slot->desc->pool) +
                       " thread " + std::to_string(slot->thread);
    if (r.async && !r.completable) line += " (waiting for its completion)";
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace ordo::engine
