// The engine semantics (docs/semantics.md §2) as a deterministic value type: var queues, op slots,
// pending counters, the pools' run queues and thread occupancy, and poison. No threads, no locks,
// no clocks: the production scheduler drives it under one mutex, the controlled scheduler drives
// it one decision at a time, and the checker can copy it to branch. docs/engine.md states every
// rule.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "runtime/dag/program.hpp"
#include "runtime/engine/rules/access_queue.hpp"
#include "runtime/engine/rules/failures.hpp"
#include "runtime/engine/rules/handles.hpp"
#include "runtime/engine/rules/limits.hpp"
#include "runtime/engine/rules/op_desc.hpp"
#include "runtime/engine/rules/op_slots.hpp"
#include "runtime/engine/rules/pool_threads.hpp"
#include "runtime/engine/rules/run_queue.hpp"
#include "runtime/engine/rules/var_state.hpp"

namespace ordo::engine {

// The result of taking a pool's next op. A skipped op read or wrote a poisoned var: it already
// completed (its writes now carry the poison) and its function must not run.
struct Started {
  OpHandle op;
  std::uint32_t thread = 0;
  bool skipped = false;
};

// A start the pool can make now: its next ready op onto its lowest free thread (docs/engine.md).
struct StartChoice {
  OpHandle op;
  std::uint32_t thread = 0;
};

class EngineState {
 public:
  EngineState(std::vector<dag::Pool> pools, Limits limits);

  VarHandle add_var();
  std::uint32_t vars() const { return static_cast<std::uint32_t>(vars_.size()); }
  std::uint32_t pools() const { return static_cast<std::uint32_t>(pools_.size()); }
  const dag::Pool& pool(dag::PoolId pool) const;
  const Limits& limits() const { return limits_; }

  // Throws UsageError naming the op and the fault; submit() calls it before mutating anything.
  void check(const OpDesc& desc, bool async) const;
  bool has_room() const { return slots_.live() < limits_.ops_pending_max; }
  // Appends the op to its vars' queues. Requires has_room(); throws UsageError on a bad desc.
  // The state keeps the description alive until the op retires (a copy of the state shares it).
  OpHandle submit(std::shared_ptr<const OpDesc> desc, bool async);
  OpHandle submit(const OpDesc& desc, bool async);
  // As submit, but the state only points at `desc`, which must outlive the op in this state and
  // in every copy of it. The checker submits from its model's table, which outlives every state,
  // so that copying a rank's state (one copy per transition) copies plain bytes.
  OpHandle submit_unowned(const OpDesc& desc, bool async);
  // The op the pool would start next, if any.
  std::optional<OpHandle> peek_next(dag::PoolId pool) const;
  std::size_t ready_count(dag::PoolId pool) const { return pool_at(pool).queue.size(); }
  // Calls visit(slot) for each ready op of the pool, in the order the pool would start them.
  template <typename Visit>
  void for_each_ready(dag::PoolId pool, Visit&& visit) const {
    pool_at(pool).queue.for_each_in_pop_order(visit);
  }
  std::optional<std::uint32_t> lowest_free_thread(dag::PoolId pool) const;
  // The start the scheduler may take on this pool now, if any: every scheduler (the thread pool,
  // the controlled one, the checker's transitions) asks this, so they agree on what is enabled.
  std::optional<StartChoice> next_start(dag::PoolId pool) const;
  // Pops the pool's next op onto `thread`. Requires a non-empty run queue and `thread` free.
  Started start_next(dag::PoolId pool, std::uint32_t thread);
  // An async op's function returned: its thread is free; the op stays in flight until complete().
  void thread_returned(OpHandle op);
  // The op completed, failed if `error` is set: releases its vars (and a sync op's thread).
  void complete(OpHandle op, std::exception_ptr error);
  // Drops every op not started yet and returns them; started ops keep their grants.
  std::vector<OpHandle> discard_unstarted();

  // Ops that became ready in the latest submit, start_next or complete, in submit order.
  std::span<const OpHandle> last_ready() const { return ready_batch_; }

  const OpSlot* find(OpHandle op) const { return slots_.find(op); }
  const OpSlot& slot(std::uint32_t slot) const { return slots_.at(slot); }
  OpHandle handle(std::uint32_t slot) const { return slots_.handle(slot); }
  const PoolThreads& threads(dag::PoolId pool) const;
  std::uint32_t ops_live() const { return slots_.live(); }
  std::uint32_t op_slots_allocated() const { return slots_.capacity(); }
  std::uint64_t ops_incomplete() const { return ops_incomplete_; }
  // Ops dropped by discard_unstarted: submitted, never to complete.
  std::uint64_t ops_discarded() const { return ops_discarded_; }
  std::uint64_t writes_submitted(VarHandle var) const { return var_at(var).writes_submitted; }
  std::uint64_t writes_completed(VarHandle var) const { return var_at(var).writes_completed; }
  bool poisoned(VarHandle var) const { return var_at(var).poison.active(); }
  // The queries the main thread's waits end on, written once for the engine, its schedulers and
  // the checker: every write submitted to the var completed (what ends wait_to_read while
  // nothing more is submitted); every op submitted completed, none discarded (wait_for_all;
  // discarded ops never complete, so after a discarding shutdown this is never true).
  bool readable(VarHandle var) const { return writes_completed(var) >= writes_submitted(var); }
  bool all_done() const { return ops_incomplete_ == 0 && ops_discarded_ == 0; }
  // Read-only views for diagnostics (an engine state dump): a var's holders and its queue.
  const VarState& var_state(VarHandle var) const { return var_at(var); }
  template <typename Visit>
  void for_each_waiting(VarHandle var, Visit&& visit) const {
    nodes_.for_each(var_at(var).waiting, visit);
  }

  // wait_to_read's epilogue: the var's poison, cleared here and at every var of the same failure.
  std::exception_ptr surface_var(VarHandle var);
  // wait_for_all's epilogue: the earliest failure not yet surfaced; clears every failure.
  std::exception_ptr surface_all();

 private:
  struct Pool {
    dag::Pool desc;
    RunQueue queue;
    PoolThreads threads;
  };

  const Pool& pool_at(dag::PoolId pool) const;
  Pool& pool_at(dag::PoolId pool);
  const VarState& var_at(VarHandle var) const;
  void check_vars(const OpDesc& desc) const;
  OpHandle submit_checked(std::uint32_t index, const OpDesc& desc, bool async);
  std::uint32_t allocate_checked(const OpDesc& desc, bool async);
  Poison poison_at_start(const OpSlot& op) const;
  void release_slot(std::uint32_t slot, const Poison& poison);
  void granted(std::uint32_t slot);
  void enqueue_ready_batch();
  void clear_failure(std::uint64_t failure_id);
  void regrant_started();

  Limits limits_;
  std::vector<Pool> pools_;
  std::vector<VarState> vars_;
  AccessNodes nodes_;
  OpSlots slots_;
  Failures failures_;
  std::vector<OpHandle> ready_batch_;
  std::uint64_t submit_seq_next_ = 0;
  std::uint64_t ready_seq_next_ = 0;
  std::uint64_t ops_incomplete_ = 0;
  std::uint64_t ops_discarded_ = 0;
};

}  // namespace ordo::engine
