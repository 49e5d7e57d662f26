// How ready ops get threads and how callers block. The engine logic (rules, functions, poison,
// recording) lives in EngineCore once; a scheduler only decides when a pool's next op starts and
// what a caller does while a wait condition is false. ThreadPoolScheduler runs real threads;
// ControlledScheduler lets a driver take every decision, for tests and counterexample replay.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <string>

#include "runtime/dag/program.hpp"
#include "runtime/engine/rules/handles.hpp"

namespace ordo::engine {

class EngineCore;

// The ops a wait cannot return before: a scheduler may run such an op on the waiting thread
// itself instead of handing it to a pool thread and sleeping. Running one there cannot delay the
// wait or anything behind it, since the wait needs that op complete either way.
struct WaitNeeds {
  enum class Kind : std::uint8_t {
    none,           // no particular op (back-pressure: any retirement ends the wait)
    every_op,       // wait_for_all
    writes_of_var,  // wait_to_read(var)
  };
  Kind kind = Kind::none;
  VarHandle var{};
};

class Scheduler {
 public:
  using Lock = std::unique_lock<std::mutex>;

  Scheduler() = default;
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;
  virtual ~Scheduler() = default;

  // Once, from the engine's constructor, before any submission; the core outlives the scheduler's
  // use.
  virtual void attach(EngineCore& core) = 0;
  // Under the core lock: these ops just joined their pools' run queues.
  virtual void on_ready(std::span<const OpHandle> ready) = 0;
  // Under the core lock: some op completed or the engine began stopping; waiters may proceed.
  virtual void on_progress() = 0;
  // Under the core lock: a blocking async op completed after its function returned, so the
  // pool thread it kept is free again.
  virtual void on_thread_freed(dag::PoolId /*pool*/) {}
  // Under the core lock: an async op's handle fired.
  virtual void on_async_signal(Lock& lock, OpHandle op, std::exception_ptr error) = 0;
  // Under the core lock, called only while `done()` is false: returns once it holds, or throws.
  // `what` describes the wait for error messages; `needs` says which ops the wait depends on.
  virtual void wait(Lock& lock, const std::function<bool()>& done, const std::string& what,
                    const WaitNeeds& needs) = 0;
  // Under the core lock, on the calling thread: a submit batch opens or closes (submit_batch.hpp),
  // and a batching thread asks for its deferred ops to be handed over. A scheduler without
  // sleeping workers has nothing to defer.
  virtual void begin_batch(Lock& /*lock*/) {}
  virtual void end_batch(Lock& /*lock*/) {}
  virtual void release_deferred(Lock& /*lock*/) {}
  // Without the lock, once, at shutdown after unstarted ops were discarded: lets started ops end
  // (within the scheduler's own bound) and stops any threads.
  virtual void drain() = 0;
};

}  // namespace ordo::engine
