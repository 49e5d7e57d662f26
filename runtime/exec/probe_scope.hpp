// Keeps the simulated world's deadlock probe on a rank's executor while it lives, and leaves a
// finished rank behind, so the watchdog never calls into a destroyed executor (even when the
// rank's run ends by an exception). Nothing happens without a simulated world.
#pragma once

#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/exec/executor.hpp"

namespace ordo::exec {

class ProbeScope {
 public:
  ProbeScope(comm::sim::SimWorld* sim, dag::Rank rank, const Executor& executor)
      : sim_(sim), rank_(rank) {
    if (sim_ != nullptr) sim_->set_probe(rank_, [&executor] { return executor.activity(); });
  }
  ~ProbeScope() {
    if (sim_ != nullptr) {
      sim_->set_probe(rank_, [] { return comm::sim::RankActivity{true, true, {}}; });
    }
  }
  ProbeScope(const ProbeScope&) = delete;
  ProbeScope& operator=(const ProbeScope&) = delete;

 private:
  comm::sim::SimWorld* sim_;
  dag::Rank rank_;
};

}  // namespace ordo::exec
