// The designs side by side: data-parallel steps of a small network under each KVStore design, on
// simulated ranks in this process or on the real MPI ranks this process belongs to, with the
// step time and whether every pulled gradient equalled the exact sum over ranks.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::demo {

struct DesignRow {
  designs::DesignConfig config;
  std::uint32_t ranks = 0;
  double step_ms_mean = 0.0;  // over steps after the first, on the slowest rank
  bool gradients_exact = false;
  bool weights_broadcast = false;
  std::string failure;  // a violation or error report; empty when the run completed
};

struct DesignsDemoOptions {
  networks::Network network = networks::mlp(4, 256, 2000.0);
  std::uint32_t steps = 4;
  double compute_time_scale = 1.0;
};

// Every design in its default configuration (concom on one comm thread), for a run on `ranks`
// ranks (sharded's and hierarchical's programs are written for their rank count; hierarchical's
// nodes are two halves of the ranks, whatever the machines).
std::vector<designs::DesignConfig> demo_designs(std::uint32_t ranks);

// Every design on `ranks` simulated ranks, one thread per rank.
std::vector<DesignRow> run_designs_simulated(std::uint32_t ranks, const DesignsDemoOptions& o);
// One design on the calling MPI rank; every rank of `world` must call it alike. The row's step
// time is this rank's.
DesignRow run_design_on(comm::World& world, const designs::DesignConfig& config,
                        const DesignsDemoOptions& o);

void print_rows(std::ostream& out, const std::string& title, const std::vector<DesignRow>& rows);
bool rows_ok(const std::vector<DesignRow>& rows);

}  // namespace ordo::demo
