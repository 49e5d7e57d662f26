// The caller-side waits. Each one checks its condition under the core mutex and only asks the
// scheduler to wait when it is false, so under the controlled scheduler a satisfied wait never
// throws WouldBlock and under the thread pool a satisfied wait never sleeps.
#include <cassert>
#include <exception>

#include "runtime/engine/core.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/engine/errors.hpp"

namespace ordo::engine {
namespace {

// A wait that blocks, as a slice of the trace (if any) from before the wait to its end, thrown or
// not. Begun and ended under the lock, which the trace never takes itself.
class TraceWait {
 public:
  TraceWait(OpTrace* trace, std::string_view what, std::string_view var)
      : trace_(trace), token_(trace != nullptr ? trace->wait_begin(what, var) : -1) {}
  TraceWait(const TraceWait&) = delete;
  TraceWait& operator=(const TraceWait&) = delete;
  ~TraceWait() {
    if (trace_ != nullptr) trace_->wait_end(token_);
  }

 private:
  OpTrace* trace_;
  std::int64_t token_;
};

}  // namespace

void Engine::wait_to_read(VarHandle var) {
  refuse_in_op("wait_to_read");
  EngineCore::Lock lock(core_->mutex());
  EngineState& rules = core_->rules();
  const std::uint64_t writes_target = rules.writes_submitted(var);  // throws on an unknown var
  if (recorder_) recorder_->check_room_for_action("wait_to_read");
  const auto done = [&] { return rules.writes_completed(var) >= writes_target; };
  if (!done()) {
    const std::string what = "wait_to_read(" + describe_var(var) +
                             "): " + std::to_string(rules.writes_completed(var)) + " of the " +
                             std::to_string(writes_target) + " writes submitted to it completed";
    const auto done_or_stopping = [&] { return done() || core_->stopping(); };
    if (!core_->stopping()) {
      const TraceWait traced(core_->trace(), "wait_to_read", vars_.at(var.id).name);
      scheduler_->wait(lock, done_or_stopping, what,
                       WaitNeeds{WaitNeeds::Kind::writes_of_var, var});
    }
    if (!done()) throw EngineStopped(what + " when the engine shut down");
  }
  if (recorder_) recorder_->record_wait_to_read(var);
  const std::exception_ptr error = rules.surface_var(var);
  assert(!rules.poisoned(var));
  lock.unlock();
  if (error) std::rethrow_exception(error);
}

void Engine::wait_for_all() {
  refuse_in_op("wait_for_all");
  EngineCore::Lock lock(core_->mutex());
  EngineState& rules = core_->rules();
  if (recorder_) recorder_->check_room_for_action("wait_for_all");
  const auto done = [&] { return rules.all_done(); };
  if (!done()) {
    const std::string what = "wait_for_all(): " + std::to_string(rules.ops_incomplete()) +
                             " ops not complete, " + std::to_string(rules.ops_discarded()) +
                             " discarded";
    const auto done_or_stopping = [&] { return done() || core_->stopping(); };
    if (!core_->stopping()) {
      const TraceWait traced(core_->trace(), "wait_for_all", {});
      scheduler_->wait(lock, done_or_stopping, what, WaitNeeds{WaitNeeds::Kind::every_op, {}});
    }
    if (!done()) throw EngineStopped(what + " when the engine shut down");
  }
  if (recorder_) recorder_->record_wait_for_all();
  const std::exception_ptr error = rules.surface_all();
  lock.unlock();
  if (error) std::rethrow_exception(error);
}

bool Engine::can_read(VarHandle var) const {
  const std::lock_guard<std::mutex> lock(core_->mutex());
  return core_->rules().readable(var);
}

bool Engine::all_done() const {
  const std::lock_guard<std::mutex> lock(core_->mutex());
  return core_->rules().all_done();
}

Activity Engine::activity(std::optional<VarHandle> awaited) const {
  const std::lock_guard<std::mutex> lock(core_->mutex());
  const EngineState& rules = core_->rules();
  Activity a;
  a.functions_running = core_->functions_running();
  for (dag::PoolId pool = 0; pool < rules.pools(); ++pool) {
    if (rules.next_start(pool)) ++a.ops_startable;
  }
  a.ops_incomplete = rules.ops_incomplete();
  a.ops_on_device = core_->ops_on_device();
  a.all_done = rules.all_done();
  if (awaited) a.awaited_readable = rules.readable(*awaited);
  return a;
}

}  // namespace ordo::engine
