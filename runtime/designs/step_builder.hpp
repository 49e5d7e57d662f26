// A whole job for the checker and the dumps: the step program a design gives for a network, as
// one SPMD program, valid at any rank count; but for sharded's, written for `shards` ranks, and
// hierarchical's, one program per node's leader and one per node's other ranks.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/dag/program.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::designs {

struct StepOptions {
  bool include_init = false;  // broadcast the weights first, as the first training step would
  std::uint32_t steps = 1;
  // Steps not closed by a wait_for_all (only the last is): a step's communication and updates
  // run on into the next step's forward, which waits only for the weights it reads, as in MXNet.
  // docs/train.md says what verifying such a program proves about longer runs.
  bool overlap = false;
};

// The step program's name: "<network>.<design>".
std::string step_program_name(const networks::Network& network, const DesignConfig& config);

// One program: the initial broadcast if asked, then `steps` steps, their op names prefixed
// "s1.", "s2.", ... when there are several (as the trainer names every step's ops). Throws
// std::invalid_argument for a bad network, configuration or step count.
dag::Job build_step_job(const networks::Network& network, const DesignConfig& config,
                        const StepOptions& options);

}  // namespace ordo::designs
