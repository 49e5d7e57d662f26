// The dependency engine (docs/semantics.md §2): ops declare the vars they read and write, and run
// on fixed thread pools as soon as the per-var FIFO rules allow. One mutex guards the whole state;
// the Scheduler given at construction decides how ready ops get threads and how waits block, so
// the same engine runs on real threads or under a controlled schedule, one decision at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/dag/program.hpp"
#include "runtime/engine/engine_snapshot.hpp"
#include "runtime/engine/op_trace.hpp"
#include "runtime/engine/recorder.hpp"
#include "runtime/engine/rules/handles.hpp"
#include "runtime/engine/rules/limits.hpp"
#include "runtime/engine/rules/op_desc.hpp"
#include "runtime/engine/scheduler.hpp"
#include "runtime/engine/task.hpp"

namespace ordo::engine {

class EngineCore;

struct EngineConfig {
  std::vector<dag::Pool> pools{};  // PoolId i is pools[i]; names unique
  Limits limits{};
  bool record = false;  // keep the submitted program for recorded_job()
  std::string program_name = "step";
};

// A consistent snapshot of what an engine is doing, for deadlock detection: with no function
// running and no op startable, nothing in the engine moves until an in-flight async op completes.
struct Activity {
  std::uint32_t functions_running = 0;  // op functions executing now
  std::uint32_t ops_startable = 0;      // pools with a ready op and a free thread
  std::uint64_t ops_incomplete = 0;     // submitted and not completed
  // Device ops (engine/device_pool.hpp) whose function returned and whose queue has not reached
  // their marker yet: work that completes by itself, so a rank with any is not stuck.
  std::uint64_t ops_on_device = 0;
  bool all_done = true;  // as all_done() says: every submitted op completed, none discarded
  // With a var asked about: every write submitted to it completed, so a wait to read it returns.
  bool awaited_readable = true;
  friend bool operator==(const Activity&, const Activity&) = default;
};

struct ShutdownReport {
  std::uint64_t ops_discarded = 0;  // never started; their functions were destroyed unrun
  std::uint64_t ops_abandoned = 0;  // started but not completed when the engine stopped waiting
  friend bool operator==(const ShutdownReport&, const ShutdownReport&) = default;
};

class Engine {
 public:
  Engine(EngineConfig config, std::unique_ptr<Scheduler> scheduler);
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  ~Engine();  // shutdown()

  VarHandle new_var(dag::Var desc);
  // Communicators are only recorded; collectives name them by the returned id.
  dag::CommId declare_comm(dag::Communicator comm);

  // Appends the op to its vars' queues. At limits.ops_pending_max a caller thread blocks until an
  // op retires; a submission from inside an op throws CapacityError instead. Throws UsageError on a
  // bad desc and EngineStopped after shutdown began.
  OpHandle submit(const OpDesc& desc, SyncFn fn);
  // desc.kind must be async_collective; the op completes when its handle is invoked.
  OpHandle submit_async(const OpDesc& desc, AsyncFn fn);

  // Blocks until every write submitted to `var` so far completed, then rethrows the var's poison
  // (clearing it). Under the controlled scheduler throws WouldBlock instead of blocking.
  void wait_to_read(VarHandle var);
  // Blocks until every submitted op completed, then rethrows the earliest failure not yet surfaced
  // (clearing every failure).
  void wait_for_all();
  // Whether every write submitted to `var` / every submitted op completed, so that the matching
  // wait returns (or rethrows the poison) at once. Ops discarded at shutdown never complete.
  bool can_read(VarHandle var) const;
  bool all_done() const;
  // Under one lock, so a caller may read its own state before and after and know the engine's
  // part of it belongs to one instant.
  Activity activity(std::optional<VarHandle> awaited = std::nullopt) const;

  // Submit batches (submit_batch.hpp), nested per thread: begin/end are what SubmitBatch calls.
  // Ending the outermost batch of a thread hands the ops it deferred to the workers.
  void begin_batch();
  void end_batch();
  // Hands every ready op whose worker wake a batch deferred to the workers now: for a batching
  // thread about to block outside the engine.
  void release_deferred();

  // A collective the caller thread issues itself, recorded as a main action; no effect otherwise.
  void record_main_collective(const dag::Collective& collective, std::optional<VarHandle> buffer);
  // The program submitted so far: one SPMD program, ranks absent, the declared communicators.
  dag::Job recorded_job() const;

  // The engine's state now, for a hang report from another thread. The lock is never held across
  // an op function or a blocking call, so it is normally free at once; nullopt when it stays
  // taken for `lock_wait` (a report must not hang on the state it reports).
  std::optional<EngineSnapshot> snapshot(std::chrono::milliseconds lock_wait,
                                         SnapshotBounds bounds = {}) const;

  // Discards unstarted ops (their functions destroyed unrun), waits for started ones, stops the
  // scheduler. Idempotent; later submissions throw EngineStopped.
  ShutdownReport shutdown();

  Scheduler& scheduler() { return *scheduler_; }
  // The pool `id` as configured (pools never change after construction). Throws UsageError for
  // an id past the pools.
  const dag::Pool& pool(dag::PoolId id) const;

  // Every op started from now on and every blocking wait is told to `trace` (null: none). It
  // must outlive its use: set it to null before destroying it (ops already claimed keep it).
  void set_trace(OpTrace* trace);

 private:
  OpHandle submit_task(const OpDesc& desc, Task& task);
  void check_collective(const dag::Collective& collective, const std::string& user) const;
  std::string describe_var(VarHandle var) const;
  void refuse_in_op(const char* call) const;

  std::unique_ptr<EngineCore> core_;
  std::unique_ptr<Scheduler> scheduler_;  // declared after core_: destroyed first
  std::string program_name_;
  // Under the core mutex.
  std::vector<dag::Var> vars_;
  std::vector<dag::Communicator> comms_;
  std::optional<Recorder> recorder_;
  // Serialises shutdown so concurrent callers all return the one report.
  std::mutex shutdown_mutex_;
  std::optional<ShutdownReport> shutdown_report_;
};

}  // namespace ordo::engine
