// A submit batch: a scope in which the calling thread tells the engine it will wait on it soon.
// Inside a batch, an op that becomes ready on this thread (submitted ready, or readied by an op
// this thread ran while helping a wait) is not handed to a sleeping worker at once; the thread's
// next wait runs it itself or hands it over before it blocks, and leaving the outermost batch hands
// over whatever is left. A caller that submits an op and then waits for it saves the worker's futex
// wake-up (and, on a busy machine, the core that worker takes), which is a large share of a 1 MiB
// allreduce (docs/engine.md).
//
// The promise a batch makes: while it is open, the thread blocks on nothing but the engine's own
// waits. Before blocking elsewhere (a main-thread MPI call, a lock another rank's progress needs)
// it calls Engine::release_deferred(), as exec::Executor does before every main-thread
// collective. A batch only delays when ready ops start, which the engine rules allow anyway, so
// every run inside one is a run the checker already covers.
#pragma once

#include "runtime/engine/engine.hpp"

namespace ordo::engine {

// Scoped like a lock guard: one thread opens and closes it, and it must not outlive its engine.
class SubmitBatch {
 public:
  explicit SubmitBatch(Engine& engine) : engine_(engine) { engine_.begin_batch(); }
  ~SubmitBatch() { engine_.end_batch(); }
  SubmitBatch(const SubmitBatch&) = delete;
  SubmitBatch& operator=(const SubmitBatch&) = delete;

 private:
  Engine& engine_;
};

}  // namespace ordo::engine
