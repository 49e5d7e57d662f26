// One simulated rank on the production scheduler, for the executor tests: a world of one rank
// with the communicator "world", and an engine with one compute pool of one thread.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"

namespace ordo::exec::test {

inline engine::EngineConfig one_compute_thread() {
  engine::EngineConfig config;
  config.pools = {dag::Pool{"compute", 1}};
  return config;
}

struct OneRank {
  const std::vector<dag::Communicator> comms = {dag::Communicator{"world", std::nullopt}};
  comm::sim::SimWorld world{1, comms};
  engine::Engine engine{one_compute_thread(), std::make_unique<engine::ThreadPoolScheduler>()};
};

}  // namespace ordo::exec::test
