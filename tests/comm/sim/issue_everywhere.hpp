// Issues one call on every rank of a simulated world at once, each rank on its own thread, in the
// blocking form or the non-blocking one waited for, and joins them.
#pragma once

#include <thread>
#include <vector>

#include "runtime/comm/sim/sim_world.hpp"

namespace ordo::comm::sim::testing {

inline void issue_everywhere(SimWorld& world, const Call& call,
                             std::vector<std::vector<float>>& data, bool blocking) {
  std::vector<std::thread> threads;
  for (dag::Rank r = 0; r < world.size(); ++r) {
    threads.emplace_back([&, r] {
      Communicator& comm = world.rank(r).comm(0);
      if (blocking) {
        comm.call(call, data[r].data());
      } else {
        comm.start(call, data[r].data())->wait();
      }
    });
  }
  for (std::thread& t : threads) t.join();
}

}  // namespace ordo::comm::sim::testing
