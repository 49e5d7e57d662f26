#include "runtime/engine/rules/engine_state.hpp"

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>

#include "runtime/engine/rules/errors.hpp"

namespace ordo::engine {

EngineState::EngineState(std::vector<dag::Pool> pools, Limits limits)
    : limits_(limits), failures_(limits.failures_listed_max) {
  // No pools is a valid engine: a program whose main thread issues every collective itself has
  // no ops, and what validates must run and verify.
  if (pools.size() > dag::limits::pools_max) {
    throw CapacityError("engine has " + std::to_string(pools.size()) + " pools; at most " +
                        std::to_string(dag::limits::pools_max) + " are allowed");
  }
  if (limits.ops_pending_max == 0) throw UsageError("limits.ops_pending_max must be positive");
  pools_.reserve(pools.size());
  for (dag::Pool& desc : pools) {
    if (desc.threads == 0 || desc.threads > dag::limits::pool_threads_max) {
      throw UsageError("pool '" + desc.name + "' has " + std::to_string(desc.threads) +
                       " threads; a pool needs 1 to " +
                       std::to_string(dag::limits::pool_threads_max));
    }
    const RunQueue queue(desc.kind);
    const PoolThreads threads(desc.threads);
    pools_.push_back(Pool{std::move(desc), queue, threads});
  }
  assert(ops_incomplete_ == 0);
}

VarHandle EngineState::add_var() {
  if (vars_.size() >= limits_.vars_max) {
    throw CapacityError("engine already has " + std::to_string(vars_.size()) +
                        " vars, the limit (limits.vars_max)");
  }
  vars_.emplace_back();
  assert(vars_.back().waiting.empty());
  return VarHandle{static_cast<dag::VarId>(vars_.size() - 1)};
}

// Pool ids come from callers (drivers, the checker), so a bad one is a usage error, not UB.
const EngineState::Pool& EngineState::pool_at(dag::PoolId pool) const {
  if (pool >= pools_.size()) {
    throw UsageError("pool " + std::to_string(pool) + " does not exist (the engine has " +
                     std::to_string(pools_.size()) + " pools)");
  }
  return pools_[pool];
}

EngineState::Pool& EngineState::pool_at(dag::PoolId pool) {
  return const_cast<Pool&>(std::as_const(*this).pool_at(pool));
}

const dag::Pool& EngineState::pool(dag::PoolId pool) const { return pool_at(pool).desc; }

const PoolThreads& EngineState::threads(dag::PoolId pool) const { return pool_at(pool).threads; }

const VarState& EngineState::var_at(VarHandle var) const {
  if (var.id >= vars_.size()) {
    throw UsageError("var " + std::to_string(var.id) + " does not exist (the engine has " +
                     std::to_string(vars_.size()) + " vars)");
  }
  return vars_[var.id];
}

OpHandle EngineState::submit(const OpDesc& desc, bool async) {
  return submit(std::make_shared<const OpDesc>(desc), async);
}

OpHandle EngineState::submit(std::shared_ptr<const OpDesc> shared, bool async) {
  if (shared == nullptr) throw UsageError("submit: no op description");
  const OpDesc& desc = *shared;
  const std::uint32_t index = allocate_checked(desc, async);
  slots_.own(index, std::move(shared));
  return submit_checked(index, desc, async);
}

OpHandle EngineState::submit_unowned(const OpDesc& desc, bool async) {
  const std::uint32_t index = allocate_checked(desc, async);
  slots_.at(index).desc = &desc;
  return submit_checked(index, desc, async);
}

// Checks the op and takes a free slot for it; nothing else changes yet.
std::uint32_t EngineState::allocate_checked(const OpDesc& desc, bool async) {
  check(desc, async);
  if (!has_room()) {
    throw CapacityError("op '" + desc.name + "' would exceed limits.ops_pending_max (" +
                        std::to_string(limits_.ops_pending_max) + " ops pending)");
  }
  return slots_.allocate();
}

// Submits the checked op into the slot allocate_checked took for it, its description set.
OpHandle EngineState::submit_checked(std::uint32_t index, const OpDesc& desc, bool async) {
  OpSlot& op = slots_.at(index);
  assert(op.desc == &desc);
  op.async = async;
  op.blocking = async && desc.kind == dag::OpKind::collective;
  op.returned = false;
  op.submit_seq = submit_seq_next_++;
  op.pending = static_cast<std::uint32_t>(desc.reads.size() + desc.writes.size());
  op.state = OpState::waiting;
  ++ops_incomplete_;
  std::uint32_t grants = 0;
  for (const VarHandle var : desc.reads) {
    grants += var_append(vars_[var.id], nodes_, Access{index, AccessMode::read}) ? 1u : 0u;
  }
  for (const VarHandle var : desc.writes) {
    grants += var_append(vars_[var.id], nodes_, Access{index, AccessMode::write}) ? 1u : 0u;
  }
  assert(grants <= op.pending);
  // The whole submission is one event, so the op turns ready only after every var saw it.
  op.pending -= grants;
  ready_batch_.clear();
  if (op.pending == 0) ready_batch_.push_back(slots_.handle(index));
  enqueue_ready_batch();
  return slots_.handle(index);
}

std::optional<OpHandle> EngineState::peek_next(dag::PoolId pool) const {
  const RunQueue& queue = pool_at(pool).queue;
  if (queue.empty()) return std::nullopt;
  assert(slots_.at(queue.front()).state == OpState::ready);
  return slots_.handle(queue.front());
}

std::optional<std::uint32_t> EngineState::lowest_free_thread(dag::PoolId pool) const {
  const PoolThreads& threads = pool_at(pool).threads;
  if (threads.threads_busy() == threads.threads()) return std::nullopt;
  return threads.lowest_free();
}

std::optional<StartChoice> EngineState::next_start(dag::PoolId pool) const {
  const std::optional<OpHandle> next = peek_next(pool);
  const std::optional<std::uint32_t> thread = lowest_free_thread(pool);
  if (!next || !thread) return std::nullopt;
  return StartChoice{*next, *thread};
}

Started EngineState::start_next(dag::PoolId pool, std::uint32_t thread) {
  Pool& target = pool_at(pool);
  if (target.queue.empty() || thread >= target.threads.threads() ||
      !target.threads.is_free(thread)) {
    throw UsageError("pool '" + target.desc.name + "' cannot start an op on thread " +
                     std::to_string(thread) + ": it needs a ready op and that thread free");
  }
  const std::uint32_t index = target.queue.front();
  target.queue.pop();
  OpSlot& op = slots_.at(index);
  assert(op.state == OpState::ready && op.pending == 0);
  const OpHandle handle = slots_.handle(index);
  op.state = OpState::running;
  op.thread = thread;
  ready_batch_.clear();
  const Poison poison = poison_at_start(op);
  if (poison.active()) {
    release_slot(index, poison);
    return Started{handle, thread, true};
  }
  target.threads.occupy(thread, index);
  op.holds_thread = true;
  return Started{handle, thread, false};
}

void EngineState::thread_returned(OpHandle handle) {
  const OpSlot* found = slots_.find(handle);
  if (found == nullptr) throw UsageError("op " + to_string(handle) + " is not live");
  if (!found->async || !found->holds_thread) {
    throw UsageError("op '" + found->desc->name + "' (" + to_string(handle) +
                     ") is not an async op whose function is running");
  }
  OpSlot& op = slots_.at(handle.slot);
  assert(op.state == OpState::running);
  if (op.blocking && !op.completed) {
    // The collective is still in flight: its thread stays taken until release_slot() frees it.
    op.returned = true;
    ready_batch_.clear();
    return;
  }
  pools_[op.desc->pool].threads.release(op.thread, handle.slot);
  op.holds_thread = false;
  ready_batch_.clear();
  if (op.completed) slots_.retire(handle.slot);
}

void EngineState::complete(OpHandle handle, std::exception_ptr error) {
  const OpSlot* found = slots_.find(handle);
  if (found == nullptr) throw UsageError("op " + to_string(handle) + " is not live");
  if (found->state != OpState::running || found->completed) {
    throw UsageError("op '" + found->desc->name + "' (" + to_string(handle) +
                     ") cannot complete: it is not running");
  }
  ready_batch_.clear();
  const Poison poison = error ? failures_.record(std::move(error)) : Poison{};
  release_slot(handle.slot, poison);
  if (poison.active()) failures_.settle(poison.failure_id);
}

Poison EngineState::poison_at_start(const OpSlot& op) const {
  for (const VarHandle var : op.desc->reads) {
    if (vars_[var.id].poison.active()) return vars_[var.id].poison;
  }
  for (const VarHandle var : op.desc->writes) {
    if (vars_[var.id].poison.active()) return vars_[var.id].poison;
  }
  return Poison{};
}

// Releases the op's vars. The caller cleared ready_batch_; the ops granted here form one event.
void EngineState::release_slot(std::uint32_t index, const Poison& poison) {
  OpSlot& op = slots_.at(index);
  assert(op.state == OpState::running && !op.completed);
  assert(ops_incomplete_ > 0);
  const auto on_grant = [this](std::uint32_t slot) { granted(slot); };
  if (poison.active()) {
    for (const VarHandle var : op.desc->writes) {
      Poison& carried = vars_[var.id].poison;
      failures_.carried(poison.failure_id);
      if (carried.active()) failures_.dropped(carried.failure_id);
      carried = poison;
    }
  }
  for (const VarHandle var : op.desc->reads) {
    var_release(vars_[var.id], nodes_, AccessMode::read, on_grant);
  }
  for (const VarHandle var : op.desc->writes) {
    var_release(vars_[var.id], nodes_, AccessMode::write, on_grant);
  }
  op.completed = true;
  --ops_incomplete_;
  if (op.holds_thread && (!op.async || op.returned)) {
    pools_[op.desc->pool].threads.release(op.thread, index);
    op.holds_thread = false;
  }
  if (!op.holds_thread) slots_.retire(index);
  enqueue_ready_batch();
}

void EngineState::granted(std::uint32_t slot) {
  OpSlot& op = slots_.at(slot);
  assert(op.state == OpState::waiting && op.pending > 0);
  if (--op.pending == 0) ready_batch_.push_back(slots_.handle(slot));
}

// The ready-order rule: ops made ready by one event join their run queues in submit order.
void EngineState::enqueue_ready_batch() {
  const auto by_submit_seq = [this](OpHandle a, OpHandle b) {
    return slots_.at(a.slot).submit_seq < slots_.at(b.slot).submit_seq;
  };
  if (!std::is_sorted(ready_batch_.begin(), ready_batch_.end(), by_submit_seq)) {
    std::sort(ready_batch_.begin(), ready_batch_.end(), by_submit_seq);
  }
  for (const OpHandle handle : ready_batch_) {
    OpSlot& op = slots_.at(handle.slot);
    assert(op.state == OpState::waiting && op.pending == 0);
    op.state = OpState::ready;
    pools_[op.desc->pool].queue.push(ReadyEntry{op.desc->priority, ready_seq_next_++, handle.slot});
  }
}

}  // namespace ordo::engine
