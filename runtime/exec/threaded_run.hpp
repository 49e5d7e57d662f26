// Every rank of a job on real threads: one main thread and one thread-pool engine per rank, on
// one simulated world with deadlock detection. Where ControlledRun explores one schedule
// transition by transition, this runs whatever schedule the machine produces, as production does.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/exec/buffers.hpp"
#include "runtime/exec/controlled_run.hpp"
#include "runtime/exec/op_bodies.hpp"

namespace ordo::exec {

struct ThreadedOptions {
  BodyOptions body;
  std::chrono::milliseconds deadlock_check_period{20};
  // When calls whose needs are met return (docs/semantics.md, C4): at the match, or early.
  comm::sim::ReturnPolicy returns;
  // Run each rank's main-thread actions and final wait inside one submit batch
  // (runtime/engine/submit_batch.hpp), so that pool workers are woken only when the main thread
  // waits or issues a collective.
  bool batch_main = false;
  // Called on each rank's thread before its program runs (to fill inputs) and after it finished
  // without error (to read results).
  std::function<void(dag::Rank, Buffers&)> before;
  std::function<void(dag::Rank, Buffers&)> after;
};

struct ThreadedOutcome {
  RunEnd end = RunEnd::finished;
  std::string report;                    // the violation or the first rank error
  std::vector<std::string> rank_errors;  // per rank, empty when the rank finished cleanly
  double wall_ms = 0.0;
};

// Throws std::invalid_argument when `ranks` disagrees with the job or a rank has no program.
ThreadedOutcome run_threaded(const dag::Job& job, std::uint32_t ranks,
                             const ThreadedOptions& options);

}  // namespace ordo::exec
