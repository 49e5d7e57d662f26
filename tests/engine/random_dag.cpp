#include "tests/engine/random_dag.hpp"

#include <algorithm>
#include <string>

namespace ordo::engine::testing {
namespace {

// A fixed generator so a seed means the same graph everywhere.
class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : state_(seed * 2862933555777941757ull + 3037000493ull) {}
  std::uint32_t below(std::uint32_t bound) {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>((state_ >> 33) % bound);
  }

 private:
  std::uint64_t state_;
};

void apply(const RandomDag::OpSpec& op, std::size_t index, DagOutcome& outcome) {
  auto acc = static_cast<std::uint64_t>(index);  // unsigned: the fold wraps by design
  for (const dag::VarId var : op.reads) acc = acc * 31 + outcome.values[var];
  for (const dag::VarId var : op.writes) acc = acc * 31 + outcome.values[var];
  outcome.observed[index] = acc;
  for (const dag::VarId var : op.writes) outcome.values[var] = acc % 1000003 + var;
}

DagOutcome fresh_outcome(const RandomDag& dag) {
  return DagOutcome{std::vector<std::uint64_t>(dag.ops.size(), UINT64_MAX),
                    std::vector<std::uint64_t>(dag.vars, 1)};
}

}  // namespace

RandomDag make_random_dag(std::uint64_t seed, std::uint32_t vars, std::uint32_t ops,
                          std::uint32_t pools) {
  Lcg random(seed);
  RandomDag dag{vars, {}};
  for (std::uint32_t index = 0; index < ops; ++index) {
    RandomDag::OpSpec op;
    op.pool = random.below(pools);
    op.priority = static_cast<std::int32_t>(random.below(3));
    for (dag::VarId var = 0; var < vars; ++var) {
      const std::uint32_t roll = random.below(8);  // each var: read 2/8, write 1/8, absent 5/8
      if (roll < 2) op.reads.push_back(var);
      if (roll == 2) op.writes.push_back(var);
    }
    dag.ops.push_back(std::move(op));
  }
  return dag;
}

DagOutcome run_in_submit_order(const RandomDag& dag) {
  DagOutcome outcome = fresh_outcome(dag);
  for (std::size_t index = 0; index < dag.ops.size(); ++index)
    apply(dag.ops[index], index, outcome);
  return outcome;
}

std::vector<OpHandle> submit_dag(Engine& engine, const RandomDag& dag, DagOutcome& outcome) {
  outcome = fresh_outcome(dag);
  std::vector<VarHandle> vars;
  for (std::uint32_t var = 0; var < dag.vars; ++var) {
    vars.push_back(engine.new_var(dag::Var{std::string("v").append(std::to_string(var))}));
  }
  std::vector<OpHandle> handles;
  for (std::size_t index = 0; index < dag.ops.size(); ++index) {
    const RandomDag::OpSpec& spec = dag.ops[index];
    OpDesc desc{std::string("op").append(std::to_string(index)), {}, {}, spec.pool, spec.priority};
    for (const dag::VarId var : spec.reads) desc.reads.push_back(vars[var]);
    for (const dag::VarId var : spec.writes) desc.writes.push_back(vars[var]);
    handles.push_back(
        engine.submit(desc, [&spec, index, &outcome] { apply(spec, index, outcome); }));
  }
  return handles;
}

}  // namespace ordo::engine::testing
