#include "runtime/engine/engine.hpp"

#include <cassert>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "runtime/dag/limits.hpp"
#include "runtime/engine/core.hpp"
#include "runtime/engine/errors.hpp"

namespace ordo::engine {
namespace {

void check_name(const std::string& name, const char* what) {
  if (name.size() > dag::limits::name_bytes_max) {
    throw UsageError(std::string(what) + " name of " + std::to_string(name.size()) +
                     " bytes exceeds " + std::to_string(dag::limits::name_bytes_max));
  }
}

void check_pools(const std::vector<dag::Pool>& pools) {
  std::set<std::string> names;
  for (const dag::Pool& pool : pools) {
    check_name(pool.name, "pool");
    if (!names.insert(pool.name).second) {
      throw UsageError("pool name '" + pool.name + "' is used twice; pool names must be unique");
    }
  }
}

}  // namespace

Engine::Engine(EngineConfig config, std::unique_ptr<Scheduler> scheduler)
    : scheduler_(std::move(scheduler)), program_name_(std::move(config.program_name)) {
  if (scheduler_ == nullptr) throw UsageError("engine needs a scheduler");
  check_pools(config.pools);
  check_name(program_name_, "program");
  core_ = std::make_unique<EngineCore>(std::move(config.pools), config.limits, *scheduler_);
  if (config.record) recorder_.emplace();
  scheduler_->attach(*core_);
  assert(core_ != nullptr && scheduler_ != nullptr);
}

Engine::~Engine() { shutdown(); }

const dag::Pool& Engine::pool(dag::PoolId id) const {
  if (id >= core_->rules().pools()) {
    throw UsageError("pool " + std::to_string(id) + " does not exist: the engine has " +
                     std::to_string(core_->rules().pools()) + " pools");
  }
  // Read without the lock: the pools never change after construction.
  return core_->rules().pool(id);
}

VarHandle Engine::new_var(dag::Var desc) {
  check_name(desc.name, "var");
  const std::lock_guard<std::mutex> lock(core_->mutex());
  const VarHandle var = core_->rules().add_var();
  vars_.push_back(std::move(desc));
  assert(vars_.size() == core_->rules().vars());
  return var;
}

dag::CommId Engine::declare_comm(dag::Communicator comm) {
  check_name(comm.name, "communicator");
  const std::lock_guard<std::mutex> lock(core_->mutex());
  if (comms_.size() >= dag::limits::comms_max) {
    throw CapacityError("declaring communicator '" + comm.name + "' would exceed " +
                        std::to_string(dag::limits::comms_max) + " communicators");
  }
  comms_.push_back(std::move(comm));
  return static_cast<dag::CommId>(comms_.size() - 1);
}

OpHandle Engine::submit(const OpDesc& desc, SyncFn fn) {
  if (!fn) throw UsageError("op '" + desc.name + "' submitted without a function");
  Task task{std::move(fn), {}};
  return submit_task(desc, task);
}

OpHandle Engine::submit_async(const OpDesc& desc, AsyncFn fn) {
  if (!fn) throw UsageError("async op '" + desc.name + "' submitted without a function");
  Task task{{}, std::move(fn)};
  return submit_task(desc, task);
}

// `task` belongs to the caller's frame, so when the submission fails it is destroyed after the lock
// is released: its captures may hold completion handles, which lock the core when they die.
OpHandle Engine::submit_task(const OpDesc& desc, Task& task) {
  // The rules keep the description for the op's life; copying it here keeps the allocation out
  // of the engine lock.
  auto shared = std::make_shared<const OpDesc>(desc);
  EngineCore::Lock lock(core_->mutex());
  core_->admit(lock, desc, static_cast<bool>(task.async));
  if (desc.collective) check_collective(*desc.collective, "op '" + desc.name + "'");
  if (recorder_) recorder_->check_room_for_submit(desc.name);
  const OpHandle op = core_->submit(std::move(shared), task);
  if (recorder_) recorder_->record_submit(desc);
  return op;
}

void Engine::check_collective(const dag::Collective& collective, const std::string& user) const {
  if (collective.comm >= comms_.size()) {
    throw UsageError(user + " uses communicator " + std::to_string(collective.comm) + " but " +
                     std::to_string(comms_.size()) + " were declared (declare_comm)");
  }
}

void Engine::begin_batch() {
  EngineCore::Lock lock(core_->mutex());
  scheduler_->begin_batch(lock);
}

void Engine::end_batch() {
  EngineCore::Lock lock(core_->mutex());
  scheduler_->end_batch(lock);
}

void Engine::release_deferred() {
  EngineCore::Lock lock(core_->mutex());
  scheduler_->release_deferred(lock);
}

void Engine::record_main_collective(const dag::Collective& collective,
                                    std::optional<VarHandle> buffer) {
  const std::lock_guard<std::mutex> lock(core_->mutex());
  check_collective(collective, "main-thread collective");
  if (buffer && buffer->id >= vars_.size()) {
    throw UsageError("main-thread collective buffer " + describe_var(*buffer) + " does not exist");
  }
  if (!recorder_) return;
  recorder_->check_room_for_action("a main-thread collective");
  recorder_->record_main_collective(collective, buffer);
}

dag::Job Engine::recorded_job() const {
  if (!recorder_) throw UsageError("recording is off; construct the engine with record = true");
  const std::lock_guard<std::mutex> lock(core_->mutex());
  std::vector<dag::Pool> pools;
  for (dag::PoolId pool = 0; pool < core_->rules().pools(); ++pool) {
    pools.push_back(core_->rules().pool(pool));
  }
  dag::Job job{std::nullopt, comms_, {}};
  job.programs.push_back(recorder_->program(program_name_, vars_, std::move(pools)));
  assert(job.programs.size() == 1 && !job.ranks.has_value());
  return job;
}

ShutdownReport Engine::shutdown() {
  const std::lock_guard<std::mutex> once(shutdown_mutex_);
  if (shutdown_report_) return *shutdown_report_;
  refuse_in_op("shutdown");
  std::vector<Task> discarded;
  {
    const std::lock_guard<std::mutex> lock(core_->mutex());
    discarded = core_->stop();
  }
  const std::uint64_t ops_discarded = discarded.size();
  discarded.clear();  // outside the lock: destroying a function may fire a completion handle
  scheduler_->drain();
  core_->sever_link();
  const std::lock_guard<std::mutex> lock(core_->mutex());
  shutdown_report_ = ShutdownReport{ops_discarded, core_->rules().ops_incomplete()};
  assert(core_->stopping());
  return *shutdown_report_;
}

void Engine::set_trace(OpTrace* trace) {
  const std::lock_guard<std::mutex> lock(core_->mutex());
  core_->set_trace(trace);
}

void Engine::refuse_in_op(const char* call) const {
  if (core_->in_op()) {
    throw UsageError(std::string(call) +
                     " called from inside an op of the same engine; an op must declare the vars "
                     "it depends on instead of waiting");
  }
}

std::string Engine::describe_var(VarHandle var) const {
  if (var.id >= vars_.size()) return "var " + std::to_string(var.id);
  return "var " + std::to_string(var.id) + " '" + vars_[var.id].name + "'";
}

}  // namespace ordo::engine
