#include "bench/designs/device_steps.hpp"

#include <memory>
#include <string>

#include "runtime/engine/thread_pool_scheduler.hpp"

namespace ordo::bench {

namespace {

engine::EngineConfig engine_config(const designs::DesignConfig& config) {
  engine::EngineConfig c;
  c.pools = designs::step_pools(config);
  return c;
}

exec::BodyOptions device_bodies(double compute_time_scale) {
  exec::BodyOptions bodies;
  bodies.compute_time_scale = compute_time_scale;  // 1: a simulated microsecond is one of sleep
  return bodies;
}

}  // namespace

kvstore::StepRunOptions checked_steps() {
  kvstore::StepRunOptions o;
  o.steps = 2;
  o.include_init = true;
  o.compute_time_scale = 0.0;
  return o;
}

DeviceSteps::DeviceSteps(const networks::Network& network, const designs::DesignConfig& config,
                         comm::World& world, engine::OpTrace* trace, double compute_time_scale)
    : engine_(engine_config(config), std::make_unique<engine::ThreadPoolScheduler>()),
      executor_(engine_, world, designs::step_comms(config), device_bodies(compute_time_scale)),
      emitter_(network, config, executor_, world.rank()) {
  if (trace != nullptr) engine_.set_trace(trace);
  emitter_.emit_init();
}

DeviceSteps::~DeviceSteps() { executor_.main_done(); }

void DeviceSteps::step() { emitter_.emit_step("s" + std::to_string(++steps_) + "."); }

void DeviceSteps::overlapped_steps(std::uint32_t n) {
  for (std::uint32_t i = 1; i <= n; ++i) {
    emitter_.emit_step("s" + std::to_string(++steps_) + ".", /*close=*/i == n);
  }
}

}  // namespace ordo::bench
