#include "fuzz/gen/design_jobs.hpp"

#include <string>
#include <vector>

#include "fuzz/gen/design_recipe.hpp"
#include "fuzz/gen/network_recipe.hpp"
#include "runtime/designs/step_builder.hpp"

namespace ordo::fuzz {

namespace {

// Three ranks multiply the state space by far more than a third rank's share: only jobs with at
// most one key get them, which keeps them decidable and still checks three-way matching.
std::uint32_t ranks_for(const networks::Network& network, std::uint32_t wanted) {
  return networks::param_count(network) <= 1 ? wanted : 2;
}

// A sharded program is written for its rank count.
DesignRecipe at_ranks(DesignRecipe r, std::uint32_t ranks) {
  r.config.shards = ranks;
  return r;
}

std::string describe(const DesignRecipe& r) {
  std::string s = designs::describe(r.config);
  if (r.step.include_init) s += " with init";
  return s;
}

Instance spmd_instance(const NetworkRecipe& net, const DesignRecipe& recipe, std::uint32_t ranks) {
  const networks::Network network = to_network(net);
  Instance instance;
  instance.ranks = ranks_for(network, ranks);
  const DesignRecipe design = at_ranks(recipe, instance.ranks);
  instance.origin =
      "design " + describe(design) + ", " + std::to_string(networks::param_count(network)) + " keys";
  instance.job = designs::build_step_job(network, design.config, design.step);
  return instance;
}

Instance heterogeneous_instance(const NetworkRecipe& net, const DesignRecipe& base,
                                const std::vector<RankVariation>& variations) {
  Instance instance;
  const networks::Network reference = to_network(net);
  instance.ranks = ranks_for(reference, static_cast<std::uint32_t>(variations.size()));
  instance.origin = "heterogeneous";
  instance.job.ranks = instance.ranks;
  for (dag::Rank r = 0; r < instance.ranks; ++r) {
    const DesignRecipe design = at_ranks(vary(base, variations[r]), instance.ranks);
    const networks::Network network = to_network(net, variations[r].count_delta);
    dag::Job own = designs::build_step_job(network, design.config, design.step);
    // Communicator ids are positional (world, then concom's comm0, comm1, ...), so the longest
    // table serves every rank's program.
    if (own.comms.size() > instance.job.comms.size()) instance.job.comms = own.comms;
    dag::Program program = std::move(own.programs.at(0));
    program.name = "rank" + std::to_string(r) + "." + program.name;
    program.ranks = std::vector<dag::Rank>{r};
    instance.job.programs.push_back(std::move(program));
    instance.origin += ", rank " + std::to_string(r) + " " + describe(design);
    if (variations[r].count_delta > 0) instance.origin += " (first key larger)";
  }
  return instance;
}

}  // namespace

rc::Gen<Instance> design_jobs() {
  return rc::gen::apply(spmd_instance, network_recipes(), design_recipes(),
                        rc::gen::weightedElement<std::uint32_t>({{3, 2}, {1, 3}}));
}

rc::Gen<Instance> heterogeneous_jobs() {
  const auto variations = rc::gen::mapcat(
      rc::gen::weightedElement<std::size_t>({{3, 2}, {1, 3}}), [](std::size_t ranks) {
        return rc::gen::container<std::vector<RankVariation>>(ranks, rank_variations());
      });
  return rc::gen::apply(heterogeneous_instance, network_recipes(), design_recipes(), variations);
}

}  // namespace ordo::fuzz
