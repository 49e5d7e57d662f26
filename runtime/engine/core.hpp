// The engine state behind its one mutex: the rules, the op functions waiting to run, and the link
// completion handles report through. Engine drives it from the caller's side (submit, waits,
// shutdown); a Scheduler drives it from the execution side (claim, execute, complete). Keeping both
// sides here is what makes the production pool and the controlled scheduler run the same logic.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <unordered_set>
#include <optional>
#include <string>
#include <vector>

#include "runtime/engine/async_done.hpp"
#include "runtime/engine/op_trace.hpp"
#include "runtime/engine/rules/engine_state.hpp"
#include "runtime/engine/scheduler.hpp"
#include "runtime/engine/task.hpp"

namespace ordo::engine {

// An op taken off its pool's run queue, with the function the scheduler must now run (none when
// the op was skipped because of poison; it already completed).
struct Claim {
  Started started;
  Task task;
  std::string async_name;  // async ops only: named in the completion handle's errors
  dag::PoolId pool = 0;
  // Taken under the lock at the claim, so the thread that runs the op needs no lock to read it.
  OpTrace* trace = nullptr;
  const OpDesc* desc = nullptr;  // for the trace; lives until the op completes
};

// The pool thread whose op function the calling thread runs now, for diagnostics (a flight
// recorder names the pool and thread that issued each collective). `pool_name` lives as long as
// the engine.
struct RunningOp {
  dag::PoolId pool = 0;
  const std::string* pool_name = nullptr;
  std::uint32_t thread = 0;
};
// Null outside an op function.
const RunningOp* running_op();

class EngineCore {
 public:
  using Lock = std::unique_lock<std::mutex>;

  EngineCore(std::vector<dag::Pool> pools, Limits limits, Scheduler& scheduler);
  EngineCore(const EngineCore&) = delete;
  EngineCore& operator=(const EngineCore&) = delete;

  std::mutex& mutex() { return mutex_; }
  // Under the lock.
  EngineState& rules() { return rules_; }
  const EngineState& rules() const { return rules_; }
  bool stopping() const { return stopping_; }
  // Under the lock. Null: no trace.
  OpTrace* trace() const { return trace_; }
  void set_trace(OpTrace* trace) { trace_ = trace; }
  // Whether the calling thread is inside a function of an op of this engine.
  bool in_op() const;

  // Caller side, under the lock. admit refuses submissions after shutdown and, at ops_pending_max,
  // waits for room through the scheduler (or throws, from inside an op). submit then validates and
  // appends; `task` is moved from only when it succeeds.
  void admit(Lock& lock, const OpDesc& desc, bool async);
  OpHandle submit(std::shared_ptr<const OpDesc> desc, Task& task);
  // Refuses new submissions, discards every unstarted op and returns their functions, to be
  // destroyed after the lock is released (a function's captures may hold completion handles).
  std::vector<Task> stop();
  // Without the lock: completion handles stop reaching this core.
  void sever_link() { link_->sever(); }

  // Scheduler side. claim and complete/thread_returned under the lock, execute without it.
  std::optional<Claim> claim(dag::PoolId pool, std::uint32_t thread);
  // Runs the claimed function. For a sync op returns what it threw; an async op's failure goes
  // through its completion handle instead.
  std::exception_ptr execute(Claim& claim);
  void complete(OpHandle op, std::exception_ptr error);
  void thread_returned(OpHandle op);
  // Under the lock: claimed sync ops not finished and async ops whose function has not
  // returned; what deadlock detection must see at zero before it calls a rank stuck.
  std::uint32_t functions_running() const { return functions_running_; }
  // Under the lock: device ops (async ops of kind compute or copy, which only a DevicePool
  // submits) whose function returned before they completed; their queue completes them.
  std::uint64_t ops_on_device() const { return on_device_.size(); }
  // Without the lock, from a completion handle.
  void async_signal(OpHandle op, std::exception_ptr error);

 private:
  void wait_for_room(Lock& lock, const OpDesc& desc);

  std::mutex mutex_;
  EngineState rules_;
  std::vector<Task> tasks_;  // by op slot
  Scheduler& scheduler_;
  std::shared_ptr<CompletionLink> link_;
  bool stopping_ = false;
  std::uint32_t functions_running_ = 0;  // claimed ops whose function has not returned
  std::unordered_set<std::uint32_t> on_device_;  // slots of the device ops above
  OpTrace* trace_ = nullptr;
};

}  // namespace ordo::engine
