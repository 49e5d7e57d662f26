// Runs one rank's program live: the dag::ProgramSink that designs and the step emitter talk to,
// which records each action into the engine's program and carries it out at once on the engine and
// the rank's communicators. What runs is therefore exactly what `recorded_job()` and the checker
// see.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/dag/program_sink.hpp"
#include "runtime/engine/device_pool.hpp"
#include "runtime/engine/device_queue.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/exec/buffers.hpp"
#include "runtime/exec/op_bodies.hpp"
#include "runtime/exec/var_memory.hpp"

namespace ordo::exec {

// Where the main thread is, for a hang report: what it does and since when.
struct MainPosition {
  std::string state;  // "running", "waiting_var", "waiting_all", "in_collective" or "finished"
  std::string what;   // e.g. "main waits to read 'w3'"; empty while running
  std::chrono::steady_clock::time_point since;
};

class Executor final : public dag::ProgramSink {
 public:
  // Declares `comms` (the job's communicator table) to the engine for recording. The world must
  // have the same communicators, by index. The vars' bytes are host memory, or `memory`'s
  // (var_memory.hpp): vars on a device take a world whose communicators take device pointers.
  Executor(engine::Engine& engine, comm::World& world, const std::vector<dag::Communicator>& comms,
           BodyOptions options, std::shared_ptr<VarMemory> memory = nullptr);

  // The compute and copy ops of `pool` become device ops on `queue` (engine/device_pool.hpp):
  // their bodies run on a pool thread, enqueue their work on the queue and return, and the op
  // completes when the queue reaches the marker recorded behind it. The pool must be a FIFO pool
  // whose ops all go to this queue (docs/engine.md, "Device pools", says why the checker's model
  // then covers the run). Call before any op of the pool is submitted; `queue` must outlive
  // every op submitted. Throws std::invalid_argument for a pool given a queue twice.
  void use_device_queue(dag::PoolId pool, engine::DeviceQueue& queue);

  dag::VarId add_var(const dag::Var& var) override;
  const dag::Var& var(dag::VarId id) const override { return buffers_.var(id); }
  void submit(const dag::Op& op) override;
  void wait_to_read(dag::VarId var) override;
  void wait_for_all() override;
  void collective(const dag::CollectiveAction& action) override;
  // The main thread's collective without blocking: `done` runs when it completes. What a
  // controlled driver uses, since one thread drives every rank there.
  void issue_collective(const dag::CollectiveAction& action, comm::Communicator::Done done);
  // The engine handle of the op submitted last.
  engine::OpHandle last_submitted() const { return last_submitted_; }

  // The main thread has nothing more to do; deadlock detection counts it as finished.
  void main_done();
  // For the simulated world's deadlock detection (SimWorld::set_probe).
  comm::sim::RankActivity activity() const;
  // Any thread may ask, at any time (a watchdog does).
  MainPosition main_position() const;

  Buffers& buffers() { return buffers_; }
  engine::Engine& engine() { return engine_; }
  engine::VarHandle handle(dag::VarId id) const { return vars_.at(id); }

 private:
  enum class MainState { running, waiting_var, waiting_all, in_collective, finished };
  void set_main(MainState state, std::optional<dag::VarId> var = std::nullopt);

  engine::Engine& engine_;
  comm::World& world_;
  BodyOptions options_;
  Buffers buffers_;
  std::vector<engine::VarHandle> vars_;
  std::map<dag::PoolId, std::unique_ptr<engine::DevicePool>> device_pools_;
  engine::OpHandle last_submitted_;
  mutable std::mutex main_mutex_;  // guards the fields below; never held across a call
  MainState main_state_ = MainState::running;
  // Every change of main_state_ counts one: activity() tells by it that the main thread stayed put.
  std::uint64_t main_moves_ = 0;
  std::chrono::steady_clock::time_point main_since_ = std::chrono::steady_clock::now();
  // The name of main_var_, copied by the main thread itself: the var table may grow under a
  // reader on another thread.
  std::string main_var_name_;
  // The collective the main thread is issuing, from before the call to its end. A backend whose
  // call_then blocks (MPI) returns only when the call completed, so main_state_ never shows it;
  // the position report does.
  std::optional<dag::Collective> main_issuing_;
  std::optional<dag::VarId> main_var_;
  std::optional<dag::Collective> main_collective_;  // the one it is in, while in_collective
  std::vector<std::string> comm_names_;             // the job's communicator table, for reports
  bool main_collective_done_ = false;  // the main thread's current collective has completed
};

}  // namespace ordo::exec
