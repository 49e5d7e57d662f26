// Random op graphs whose outcome is known: every op folds the values it reads and the old values
// of what it writes into one number, records it, and stores derived values into its writes. The
// engine runs conflicting accesses in submit order, so any legal execution must observe exactly
// what a sequential run in submit order observes.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/engine/engine.hpp"

namespace ordo::engine::testing {

struct RandomDag {
  struct OpSpec {
    std::vector<dag::VarId> reads;
    std::vector<dag::VarId> writes;
    dag::PoolId pool = 0;
    std::int32_t priority = 0;
  };
  std::uint32_t vars = 0;
  std::vector<OpSpec> ops;
};

// What the ops saw and what the vars hold at the end.
struct DagOutcome {
  std::vector<std::uint64_t> observed;
  std::vector<std::uint64_t> values;
  friend bool operator==(const DagOutcome&, const DagOutcome&) = default;
};

RandomDag make_random_dag(std::uint64_t seed, std::uint32_t vars, std::uint32_t ops,
                          std::uint32_t pools);
DagOutcome run_in_submit_order(const RandomDag& dag);
// Submits every op; their functions fill `outcome`, which must outlive the run. Each op touches
// only its own observed entry and the values of vars it declared.
std::vector<OpHandle> submit_dag(Engine& engine, const RandomDag& dag, DagOutcome& outcome);

}  // namespace ordo::engine::testing
