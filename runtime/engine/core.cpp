#include "runtime/engine/core.hpp"

#include <cassert>
#include <string>
#include <utility>

#include "runtime/engine/errors.hpp"

namespace ordo::engine {
namespace {

// The core whose op function the current thread is running, if any. Set around every function call
// so that a submission or wait from inside an op can be told apart from one on a caller thread.
thread_local const EngineCore* running_core = nullptr;

// The pool thread the current thread stands for while it runs an op function (a helping caller
// stands for the free index it took).
thread_local const RunningOp* running_here = nullptr;

class RunningMarker {
 public:
  RunningMarker(const EngineCore* core, const RunningOp* op)
      : previous_(running_core), previous_op_(running_here) {
    running_core = core;
    running_here = op;
  }
  RunningMarker(const RunningMarker&) = delete;
  RunningMarker& operator=(const RunningMarker&) = delete;
  ~RunningMarker() {
    running_core = previous_;
    running_here = previous_op_;
  }

 private:
  const EngineCore* previous_;
  const RunningOp* previous_op_;
};

}  // namespace

const RunningOp* running_op() { return running_here; }

EngineCore::EngineCore(std::vector<dag::Pool> pools, Limits limits, Scheduler& scheduler)
    : rules_(std::move(pools), limits),
      scheduler_(scheduler),
      link_(std::make_shared<CompletionLink>(*this)) {
  assert(link_ != nullptr);
}

bool EngineCore::in_op() const { return running_core == this; }

void EngineCore::admit(Lock& lock, const OpDesc& desc, bool async) {
  assert(lock.owns_lock());
  if (stopping_) throw EngineStopped("op '" + desc.name + "' submitted after engine shutdown");
  if (rules_.has_room()) return;
  rules_.check(desc, async);  // a malformed op is reported as such, not as a wait
  wait_for_room(lock, desc);
}

OpHandle EngineCore::submit(std::shared_ptr<const OpDesc> desc, Task& task) {
  assert(!task.empty() && !stopping_);
  const OpHandle op = rules_.submit(std::move(desc), static_cast<bool>(task.async));
  if (tasks_.size() <= op.slot) tasks_.resize(op.slot + 1);
  assert(tasks_[op.slot].empty());
  tasks_[op.slot] = std::move(task);
  scheduler_.on_ready(rules_.last_ready());
  return op;
}

// Back-pressure: a caller thread blocks until an op retires. An op's own function must not block
// here, since the op that would make room may need its thread, so it gets a CapacityError.
void EngineCore::wait_for_room(Lock& lock, const OpDesc& desc) {
  const std::string bound =
      "limits.ops_pending_max (" + std::to_string(rules_.limits().ops_pending_max) + ")";
  if (in_op()) {
    throw CapacityError("op '" + desc.name + "' submitted from inside an op would exceed " + bound);
  }
  const auto room_or_stopping = [this] { return rules_.has_room() || stopping_; };
  scheduler_.wait(lock, room_or_stopping, "submission of op '" + desc.name + "' at " + bound,
                  WaitNeeds{});
  if (stopping_) throw EngineStopped("op '" + desc.name + "' submitted during engine shutdown");
  assert(rules_.has_room());
}

std::vector<Task> EngineCore::stop() {
  stopping_ = true;
  const std::vector<OpHandle> discarded = rules_.discard_unstarted();
  std::vector<Task> tasks;
  tasks.reserve(discarded.size());
  for (const OpHandle op : discarded) {
    assert(!tasks_.at(op.slot).empty());
    tasks.push_back(std::exchange(tasks_[op.slot], Task{}));
  }
  scheduler_.on_progress();
  return tasks;
}

std::optional<Claim> EngineCore::claim(dag::PoolId pool, std::uint32_t thread) {
  // A blocking async op may keep this thread index after its function returned.
  if (!rules_.threads(pool).is_free(thread)) return std::nullopt;
  const std::optional<OpHandle> next = rules_.peek_next(pool);
  if (!next) return std::nullopt;
  const OpSlot& slot = rules_.slot(next->slot);
  Claim claim{Started{},
              std::exchange(tasks_[next->slot], Task{}),
              slot.async ? slot.desc->name : std::string(),
              pool,
              trace_,
              slot.desc};
  claim.started = rules_.start_next(pool, thread);
  assert(claim.started.op == *next && !claim.task.empty());
  if (claim.started.skipped) {
    scheduler_.on_ready(rules_.last_ready());
    scheduler_.on_progress();
  } else {
    ++functions_running_;
  }
  return claim;
}

std::exception_ptr EngineCore::execute(Claim& claim) {
  assert(!claim.started.skipped && !claim.task.empty());
  // The pools never change after construction, so their names may be read without the lock.
  const RunningOp op{claim.pool, &rules_.pool(claim.pool).name, claim.started.thread};
  const RunningMarker marker(this, &op);
  // The token is taken before the function runs: an async op's desc may die while it runs.
  const std::int64_t token =
      claim.trace != nullptr ? claim.trace->op_begin(*claim.desc, *op.pool_name, op.thread) : -1;
  struct TraceEnd {
    OpTrace* trace;
    std::int64_t token;
    ~TraceEnd() {
      if (trace != nullptr) trace->op_end(token);
    }
  } const trace_end{claim.trace, token};
  if (claim.task.sync) {
    try {
      claim.task.sync();
    } catch (...) {
      return std::current_exception();
    }
    return nullptr;
  }
  // Our copy of the handle dies on return: if the function kept none and did not invoke it, the
  // op completes with AsyncHandleDropped right here.
  const AsyncDone done(link_, claim.started.op, std::move(claim.async_name));
  try {
    claim.task.async(done);
  } catch (...) {
    // A throw before the handle fired fails the op; after, the op already completed and the
    // exception has nowhere to go (docs/engine.md).
    done.complete_once(std::current_exception());
  }
  return nullptr;
}

void EngineCore::complete(OpHandle op, std::exception_ptr error) {
  on_device_.erase(op.slot);
  const OpSlot* slot = rules_.find(op);
  const bool sync = slot != nullptr && !slot->async;
  const bool frees_thread = slot != nullptr && slot->blocking && slot->returned;
  const dag::PoolId pool = slot != nullptr ? slot->desc->pool : 0;
  rules_.complete(op, std::move(error));
  if (sync) {
    assert(functions_running_ > 0);
    --functions_running_;
  }
  if (frees_thread) scheduler_.on_thread_freed(pool);
  scheduler_.on_ready(rules_.last_ready());
  scheduler_.on_progress();
}

void EngineCore::thread_returned(OpHandle op) {
  assert(functions_running_ > 0);
  --functions_running_;
  if (const OpSlot* slot = rules_.find(op);
      slot != nullptr && slot->async && !slot->completed &&
      (slot->desc->kind == dag::OpKind::compute || slot->desc->kind == dag::OpKind::copy)) {
    on_device_.insert(op.slot);
  }
  rules_.thread_returned(op);
  assert(rules_.last_ready().empty());
  // An async op that already completed retires only now, which is room a blocked submission awaits.
  scheduler_.on_progress();
}

void EngineCore::async_signal(OpHandle op, std::exception_ptr error) {
  Lock lock(mutex_);
  assert(rules_.find(op) != nullptr && rules_.find(op)->async);
  scheduler_.on_async_signal(lock, op, std::move(error));
}

}  // namespace ordo::engine
