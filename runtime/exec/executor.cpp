#include "runtime/exec/executor.hpp"

#include <cassert>
#include <condition_variable>
#include <memory>
#include <stdexcept>

#include "runtime/comm/rules/call.hpp"
#include "runtime/comm/sim/issuer.hpp"
#include "runtime/dag/action_text.hpp"

namespace ordo::exec {

namespace {

// What the main thread's action names, as copied under its lock: the var it waits for and the
// job's communicators (a live run keeps no program to look them up in).
class MainNames final : public dag::ActionNames {
 public:
  MainNames(const std::string& var, const std::vector<std::string>& comms)
      : var_(var), comms_(comms) {}
  std::string op(dag::OpId op) const override { return "op " + std::to_string(op); }
  std::string var(dag::VarId) const override { return var_; }
  std::string comm(dag::CommId comm) const override {
    return comm < comms_.size() ? comms_[comm] : "comm " + std::to_string(comm);
  }

 private:
  const std::string& var_;
  const std::vector<std::string>& comms_;
};

}  // namespace

Executor::Executor(engine::Engine& engine, comm::World& world,
                   const std::vector<dag::Communicator>& comms, BodyOptions options,
                   std::shared_ptr<VarMemory> memory)
    : engine_(engine), world_(world), options_(std::move(options)), buffers_(std::move(memory)) {
  if (comms.size() != world_.comm_count()) {
    throw std::invalid_argument("the program names " + std::to_string(comms.size()) +
                                " communicators but the world has " +
                                std::to_string(world_.comm_count()));
  }
  for (const dag::Communicator& c : comms) {
    engine_.declare_comm(c);
    comm_names_.push_back(c.name);
  }
}

void Executor::use_device_queue(dag::PoolId pool, engine::DeviceQueue& queue) {
  if (!device_pools_.try_emplace(pool, std::make_unique<engine::DevicePool>(engine_, pool, queue))
           .second) {
    throw std::invalid_argument("pool " + std::to_string(pool) + " was given a device queue twice");
  }
}

dag::VarId Executor::add_var(const dag::Var& var) {
  const dag::VarId id = buffers_.add(var);
  vars_.push_back(engine_.new_var(var));
  assert(vars_.size() == buffers_.size());
  return id;
}

void Executor::submit(const dag::Op& op) {
  const engine::OpDesc desc = engine::desc_of(op, [this](dag::VarId v) { return vars_.at(v); });
  const auto device = device_pools_.find(op.pool);
  switch (op.kind) {
    case dag::OpKind::compute: {
      auto body = [this, op] { run_compute(world_.rank(), op, buffers_, options_); };
      last_submitted_ = device == device_pools_.end() ? engine_.submit(desc, body)
                                                      : device->second->submit(desc, body);
      return;
    }
    case dag::OpKind::copy: {
      if (device == device_pools_.end()) {
        last_submitted_ = engine_.submit(desc, [this, op] { run_copy(op, buffers_); });
      } else {
        engine::DeviceQueue* queue = &device->second->queue();
        last_submitted_ =
            device->second->submit(desc, [this, op, queue] { run_copy(op, buffers_, queue); });
      }
      return;
    }
    case dag::OpKind::collective:
    case dag::OpKind::async_collective: {
      if (!op.collective)
        throw std::invalid_argument("collective op '" + op.name + "' has no spec");
      comm::Communicator& comm = world_.comm(op.collective->comm);
      const bool blocking = op.kind == dag::OpKind::collective;
      last_submitted_ =
          engine_.submit_async(desc, [this, op, &comm, blocking](engine::AsyncDone done) {
            jitter(options_.issue_jitter_us);
            exec::issue_collective(op, buffers_, comm, blocking,
                                   [done](std::exception_ptr error) { done(error); });
          });
      return;
    }
  }
  throw std::invalid_argument("op '" + op.name + "' has an unknown kind");
}

void Executor::wait_to_read(dag::VarId var) {
  set_main(MainState::waiting_var, var);
  try {
    engine_.wait_to_read(vars_.at(var));
  } catch (...) {
    set_main(MainState::running);
    throw;
  }
  set_main(MainState::running);
}

void Executor::wait_for_all() {
  set_main(MainState::waiting_all);
  try {
    engine_.wait_for_all();
  } catch (...) {
    set_main(MainState::running);
    throw;
  }
  set_main(MainState::running);
}

void Executor::issue_collective(const dag::CollectiveAction& action,
                                comm::Communicator::Done done) {
  // The call may block this thread until other ranks get further, which can need ops a submit
  // batch of this thread still holds back (runtime/engine/submit_batch.hpp).
  engine_.release_deferred();
  engine_.record_main_collective(
      action.collective, action.buffer ? std::optional(vars_.at(*action.buffer)) : std::nullopt);
  comm::Communicator& comm = world_.comm(action.collective.comm);
  void* buffer =
      action.buffer
          ? collective_slice(action.collective, *action.buffer, buffers_, "the main thread's call")
                .data()
          : nullptr;
  const comm::sim::IssuerScope issuer("main");
  comm.call_then(comm::call_of(action.collective), buffer, std::move(done));
}

void Executor::collective(const dag::CollectiveAction& action) {
  std::mutex mutex;
  std::condition_variable changed;
  bool finished = false;
  std::exception_ptr error;
  {
    std::lock_guard lock(main_mutex_);
    main_collective_done_ = false;
    main_issuing_ = action.collective;
    main_since_ = std::chrono::steady_clock::now();
  }
  issue_collective(action, [&](std::exception_ptr e) {
    // The main thread counts as running again before this callback returns: deadlock detection
    // trusts that a delivered completion leaves no rank looking blocked.
    {
      std::lock_guard lock(main_mutex_);
      main_collective_done_ = true;
      main_state_ = MainState::running;
      ++main_moves_;
      main_issuing_.reset();
      main_since_ = std::chrono::steady_clock::now();
    }
    std::lock_guard lock(mutex);
    finished = true;
    error = std::move(e);
    changed.notify_all();
  });
  {
    // Blocked only once the call is posted and not yet complete; until then the main thread
    // counts as running, so a detector can never see it blocked on a call the world lacks.
    std::lock_guard lock(main_mutex_);
    if (!main_collective_done_) {
      main_state_ = MainState::in_collective;
      ++main_moves_;
      main_since_ = std::chrono::steady_clock::now();
      main_var_.reset();
      main_collective_ = action.collective;
    }
  }
  {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return finished; });
  }
  set_main(MainState::running);
  if (error) std::rethrow_exception(error);
}

void Executor::main_done() { set_main(MainState::finished); }

void Executor::set_main(MainState state, std::optional<dag::VarId> var) {
  const auto now = std::chrono::steady_clock::now();
  std::string name = var ? buffers_.var(*var).name : std::string();
  std::lock_guard lock(main_mutex_);
  main_state_ = state;
  ++main_moves_;
  main_var_ = var;
  main_var_name_ = std::move(name);
  main_issuing_.reset();
  main_since_ = now;
}

MainPosition Executor::main_position() const {
  std::lock_guard lock(main_mutex_);
  MainPosition p;
  p.since = main_since_;
  const std::optional<dag::Collective>& in =
      main_state_ == MainState::in_collective ? main_collective_ : main_issuing_;
  if (in && (main_state_ == MainState::running || main_state_ == MainState::in_collective)) {
    p.state = "in_collective";
    p.what = "main in " + comm::describe(comm::call_of(*in), comm_names_.at(in->comm));
    return p;
  }
  switch (main_state_) {
    case MainState::running:
      p.state = "running";
      break;
    case MainState::waiting_var:
      p.state = "waiting_var";
      p.what = "main waits to read '" + main_var_name_ + "'";
      break;
    case MainState::waiting_all:
      p.state = "waiting_all";
      p.what = "main waits for all ops";
      break;
    case MainState::in_collective:  // with its collective: above
      p.state = "in_collective";
      break;
    case MainState::finished:
      p.state = "finished";
      break;
  }
  return p;
}

comm::sim::RankActivity Executor::activity() const {
  // The main thread changes its state without the engine's lock, so a probe that took the
  // engine's snapshot first and the main thread's state after could pair an engine seen idle
  // before a submit with a main thread seen waiting after it: a rank that is moving, called stuck.
  // So the main thread's state is read, then the engine's snapshot, then the main thread's move
  // count again. A main thread sets its waiting state before it blocks and leaves it before it
  // does anything else, so one that made no move across the snapshot was blocked at its instant.
  comm::sim::RankActivity a;
  MainState state = MainState::running;
  std::optional<engine::VarHandle> awaited;
  std::uint64_t moves = 0;
  {
    std::lock_guard lock(main_mutex_);
    state = main_state_;
    moves = main_moves_;
    const MainNames names(main_var_name_, comm_names_);
    switch (state) {
      case MainState::running:
      case MainState::finished:
        break;
      case MainState::waiting_var:
        // Read under the main lock while the main thread waits, so the var table cannot grow.
        awaited = vars_.at(*main_var_);
        a.main.doing = dag::describe_main(dag::WaitToReadAction{*main_var_}, names);
        break;
      case MainState::waiting_all:
        a.main.doing = dag::describe_main(dag::WaitForAllAction{}, names);
        break;
      case MainState::in_collective:
        // Described here, not per call: the call path is the hot one, a report is rare.
        a.main.in_call = true;
        a.main.doing =
            dag::describe_main(dag::CollectiveAction{*main_collective_, std::nullopt}, names, true);
        break;
    }
  }
  if (state == MainState::running) return a;
  const engine::Activity engine_now = engine_.activity(awaited);
  {
    std::lock_guard lock(main_mutex_);
    if (main_moves_ != moves) return a;  // the main thread moved meanwhile: the rank is running
  }
  bool main_blocked = true;
  switch (state) {
    case MainState::running:  // returned above
    case MainState::in_collective:
      break;
    case MainState::waiting_var:
      main_blocked = !engine_now.awaited_readable;
      break;
    case MainState::waiting_all:
      main_blocked = !engine_now.all_done;
      break;
    case MainState::finished:
      a.finished = engine_now.ops_incomplete == 0;
      break;
  }
  // A device op in flight completes by itself, when its queue gets there.
  a.quiescent = main_blocked && engine_now.functions_running == 0 &&
                engine_now.ops_startable == 0 && engine_now.ops_on_device == 0;
  return a;
}

}  // namespace ordo::exec
