#include "step_rig.hpp"

#include <cstring>
#include <string>

#include "rank_checks.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/kvstore/step_run.hpp"

namespace ordo::kvstore::mpi_test {

namespace {

engine::EngineConfig engine_config(const designs::DesignConfig& config) {
  engine::EngineConfig c;
  c.pools = designs::step_pools(config);
  return c;
}

exec::BodyOptions bodies(exec::ComputeHook hook) {
  exec::BodyOptions options;
  options.compute_time_scale = 0.0;  // no simulated device time: the tests check values only
  options.compute = std::move(hook);
  return options;
}

}  // namespace

void StepRig::Gradients::write(dag::Rank rank, const dag::Op& op, exec::Buffers& buffers) const {
  // Backward ops only: in place, funnel's fence op also writes the gradient, and does nothing.
  if (op.name.find("bwd.") == std::string::npos) return;
  const std::uint32_t s = step.load(std::memory_order_relaxed);
  for (dag::VarId var : op.writes) {
    const auto it = key_of_grad.find(var);
    if (it == key_of_grad.end()) continue;
    std::span<float> g = buffers.as<float>(var);
    const std::int64_t key = it->second;
    for (std::uint64_t i = 0; i < g.size(); ++i) g[i] = gradient_value(rank, key, i, s);
  }
}

StepRig::StepRig(const networks::Network& network, const designs::DesignConfig& config,
                 comm::World& world)
    : world_(world),
      engine_(engine_config(config), std::make_unique<engine::ThreadPoolScheduler>()),
      gradients_(std::make_shared<Gradients>()),
      executor_(engine_, world_, designs::step_comms(config),
                bodies([g = gradients_](dag::Rank rank, const dag::Op& op, exec::Buffers& b) {
                  g->write(rank, op, b);
                })),
      emitter_(network, config, executor_, world.rank()) {
  for (const designs::KeyVars& k : emitter_.keys()) gradients_->key_of_grad.emplace(k.grad, k.key);
}

void StepRig::init() {
  for (const designs::KeyVars& k : emitter_.keys()) {
    const std::vector<std::byte> pattern = weight_pattern(world_.rank(), k.key, k.count);
    std::span<std::byte> w = executor_.buffers().bytes(k.weight);
    std::memcpy(w.data(), pattern.data(), w.size());
  }
  emitter_.emit_init();
}

void StepRig::step(std::uint32_t step) {
  gradients_->step.store(step, std::memory_order_relaxed);
  emitter_.emit_step("s" + std::to_string(step + 1) + ".");
}

}  // namespace ordo::kvstore::mpi_test
