// Engine::snapshot: the engine's state in names, for a hang report (engine_snapshot.hpp).
#include <thread>

#include "runtime/engine/core.hpp"
#include "runtime/engine/engine.hpp"

namespace ordo::engine {
namespace {

const char* state_name(OpState state) {
  switch (state) {
    case OpState::waiting:
      return "waiting";
    case OpState::ready:
      return "ready";
    case OpState::running:
      return "running";
    case OpState::free:
      break;
  }
  return "free";
}

const std::string& op_name(const EngineState& rules, std::uint32_t slot) {
  static const std::string unnamed = "?";
  const OpSlot& op = rules.slot(slot);
  return op.desc != nullptr ? op.desc->name : unnamed;
}

void add_pools(const EngineState& rules, const SnapshotBounds& bounds, EngineSnapshot& out) {
  for (dag::PoolId p = 0; p < rules.pools(); ++p) {
    SnapshotPool pool;
    pool.name = rules.pool(p).name;
    const PoolThreads& threads = rules.threads(p);
    for (std::uint32_t t = 0; t < threads.threads(); ++t) {
      if (threads.is_free(t)) {
        pool.threads.emplace_back(std::nullopt);
      } else {
        pool.threads.emplace_back(op_name(rules, threads.running(t)));
      }
    }
    pool.ready = rules.ready_count(p);
    rules.for_each_ready(p, [&](std::uint32_t slot) {
      if (pool.ready_first.size() < bounds.queue_max)
        pool.ready_first.push_back(op_name(rules, slot));
    });
    out.pools.push_back(std::move(pool));
  }
}

void add_ops(const EngineState& rules, const SnapshotBounds& bounds, EngineSnapshot& out) {
  for (std::uint32_t slot = 0; slot < rules.op_slots_allocated(); ++slot) {
    const OpSlot& op = rules.slot(slot);
    if (op.state == OpState::free) continue;
    if (out.ops.size() >= bounds.ops_max) {
      ++out.ops_omitted;
      continue;
    }
    SnapshotOp s;
    s.name = op_name(rules, slot);
    s.state = state_name(op.state);
    s.pool = op.desc != nullptr ? rules.pool(op.desc->pool).name : std::string();
    if (op.holds_thread) s.thread = op.thread;
    s.accesses_pending = op.pending;
    s.async = op.async;
    s.blocking = op.blocking;
    out.ops.push_back(std::move(s));
  }
}

void add_vars(const EngineState& rules, const std::vector<dag::Var>& descs,
              const SnapshotBounds& bounds, EngineSnapshot& out) {
  for (dag::VarId id = 0; id < rules.vars(); ++id) {
    const VarHandle handle{id};
    const VarState& var = rules.var_state(handle);
    if (var.reads_active == 0 && !var.write_active && var.waiting.empty()) continue;
    if (out.vars.size() >= bounds.vars_max) {
      ++out.vars_omitted;
      continue;
    }
    SnapshotVar s;
    s.name = id < descs.size() ? descs[id].name : "var " + std::to_string(id);
    s.reads_active = var.reads_active;
    s.write_active = var.write_active;
    s.writes_submitted = var.writes_submitted;
    s.writes_completed = var.writes_completed;
    s.poisoned = var.poison.active();
    rules.for_each_waiting(handle, [&](const Access& access) {
      ++s.waiting;
      if (s.waiting_first.size() < bounds.queue_max) {
        s.waiting_first.push_back({op_name(rules, access.slot), access.mode == AccessMode::write});
      }
    });
    out.vars.push_back(std::move(s));
  }
}

}  // namespace

std::optional<EngineSnapshot> Engine::snapshot(std::chrono::milliseconds lock_wait,
                                               SnapshotBounds bounds) const {
  std::unique_lock lock(core_->mutex(), std::defer_lock);
  const auto deadline = std::chrono::steady_clock::now() + lock_wait;
  while (!lock.try_lock()) {
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const EngineState& rules = core_->rules();
  EngineSnapshot out;
  out.ops_incomplete = rules.ops_incomplete();
  out.ops_live = rules.ops_live();
  add_pools(rules, bounds, out);
  add_ops(rules, bounds, out);
  add_vars(rules, vars_, bounds, out);
  return out;
}

}  // namespace ordo::engine
