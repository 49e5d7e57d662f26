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

dag::Job build_step_job(const networks::Network& network, const DesignConfig& config,
                        const StepOptions& options) {
  if (options.steps == 0 || options.steps > steps_max) {
    throw std::invalid_argument("steps must be in [1, " + std::to_string(steps_max) + "]");
  }
  dag::Job job;
  // A sharded program is written for its rank count: which rank updates which block.
  if (config.kind == DesignKind::sharded) job.ranks = config.shards;
  job.comms = step_comms(config);
  dag::Program& program = job.programs.emplace_back();
  program.name = step_program_name(network, config);
  program.pools = step_pools(config);
  dag::ProgramWriter writer(program);
  StepEmitter emitter(network, config, writer);
  if (options.include_init) emitter.emit_init();
  for (std::uint32_t s = 0; s < options.steps; ++s) {
    emitter.emit_step(options.steps == 1 ? std::string() : "s" + std::to_string(s + 1) + ".");
  }
  return job;
}

}  // namespace ordo::designs
