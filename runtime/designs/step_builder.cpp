#include "runtime/designs/step_builder.hpp"

#include <stdexcept>
#include <string>

#include "runtime/dag/program_writer.hpp"
#include "runtime/designs/step_emitter.hpp"

namespace ordo::designs {

namespace {
constexpr std::uint32_t steps_max = 1024;
}

std::string step_program_name(const networks::Network& network, const DesignConfig& config) {
  return network.name + "." + std::string(to_string(config.kind));
}

namespace {

// The step program of `rank`, as step_program_name names it.
dag::Program rank_program(const networks::Network& network, const DesignConfig& config,
                          const StepOptions& options, dag::Rank rank) {
  dag::Program program;
  program.name = step_program_name(network, config);
  program.pools = step_pools(config);
  dag::ProgramWriter writer(program);
  StepEmitter emitter(network, config, writer, rank);
  if (options.include_init) emitter.emit_init();
  for (std::uint32_t s = 0; s < options.steps; ++s) {
    const bool close = !options.overlap || s + 1 == options.steps;
    emitter.emit_step(options.steps == 1 ? std::string() : "s" + std::to_string(s + 1) + ".",
                      close);
  }
  return program;
}

// hierarchical: a program per node for its leader, and one for its other ranks, which run the
// same ops on the same communicators.
void add_node_programs(dag::Job& job, const networks::Network& network, const DesignConfig& config,
                       const StepOptions& options) {
  for (std::uint32_t n = 0; n < config.nodes; ++n) {
    const dag::Rank first = n * config.node_ranks;
    dag::Program& leader = job.programs.emplace_back(rank_program(network, config, options, first));
    leader.name += ".node" + std::to_string(n) + ".leader";
    leader.ranks = std::vector<dag::Rank>{first};
    if (config.node_ranks == 1) continue;
    dag::Program& others =
        job.programs.emplace_back(rank_program(network, config, options, first + 1));
    others.name += ".node" + std::to_string(n) + ".others";
    others.ranks.emplace();
    for (dag::Rank r = first + 1; r < first + config.node_ranks; ++r) others.ranks->push_back(r);
  }
}

}  // namespace

dag::Job build_step_job(const networks::Network& network, const DesignConfig& config,
                        const StepOptions& options) {
  if (options.steps == 0 || options.steps > steps_max) {
    throw std::invalid_argument("steps must be in [1, " + std::to_string(steps_max) + "]");
  }
  check_config(config);
  dag::Job job;
  // sharded's and hierarchical's programs are written for their rank count.
  job.ranks = design_ranks(config);
  job.comms = step_comms(config);
  if (config.kind == DesignKind::hierarchical) {
    add_node_programs(job, network, config, options);
  } else {
    job.programs.push_back(rank_program(network, config, options, 0));
  }
  return job;
}

}  // namespace ordo::designs
