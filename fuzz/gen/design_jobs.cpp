#include "fuzz/gen/design_jobs.hpp"

#include <algorithm>
#include <stdexcept>
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

// sharded's and hierarchical's programs are written for their rank count: two nodes when the
// count is even (of one rank each at two ranks), else one node of every rank.
DesignRecipe at_ranks(DesignRecipe r, std::uint32_t ranks) {
  r.config.shards = ranks;
  r.config.nodes = ranks % 2 == 0 ? 2 : 1;
  r.config.node_ranks = ranks / r.config.nodes;
  return r;
}

std::string describe(const DesignRecipe& r) {
  std::string s = designs::describe(r.config);
  if (r.step.include_init) s += " with init";
  if (r.step.overlap) s += ", " + std::to_string(r.step.steps) + " overlapped steps";
  return s;
}

Instance spmd_instance(const NetworkRecipe& net, const DesignRecipe& recipe, std::uint32_t ranks) {
  const networks::Network network = to_network(net);
  Instance instance;
  instance.ranks = ranks_for(network, ranks);
  const DesignRecipe design = at_ranks(recipe, instance.ranks);
  instance.origin = "design " + describe(design) + ", " +
                    std::to_string(networks::param_count(network)) + " keys";
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
  std::vector<DesignRecipe> designs;
  for (dag::Rank r = 0; r < instance.ranks; ++r) {
    designs.push_back(at_ranks(vary(base, variations[r]), instance.ranks));
  }
  // Communicator ids are positional (world, then concom's comm0, comm1, ... or hierarchical's
  // node0, node1, ..., leaders), so the longest table serves every rank's program; but concom's
  // comm0 spans every rank and hierarchical's node0 does not, and a job naming both is invalid,
  // so beside hierarchical a rank departs to depcha rather than concom.
  const auto is = [&](designs::DesignKind kind) {
    return std::any_of(designs.begin(), designs.end(),
                       [&](const DesignRecipe& d) { return d.config.kind == kind; });
  };
  if (is(designs::DesignKind::hierarchical) && is(designs::DesignKind::concom)) {
    for (DesignRecipe& d : designs) {
      if (d.config.kind == designs::DesignKind::concom) d.config.kind = designs::DesignKind::depcha;
    }
  }
  for (dag::Rank r = 0; r < instance.ranks; ++r) {
    const DesignRecipe& design = designs[r];
    const networks::Network network = to_network(net, variations[r].count_delta);
    dag::Job own = designs::build_step_job(network, design.config, design.step);
    if (own.comms.size() > instance.job.comms.size()) instance.job.comms = own.comms;
    // hierarchical has a program per role; every other design one for all ranks.
    const dag::Program* mine = dag::program_of(own, r);
    if (mine == nullptr) throw std::logic_error("no program of rank " + std::to_string(r));
    dag::Program program = *mine;
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
