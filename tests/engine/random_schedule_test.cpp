// Systematic check of the rules: under many random legal schedules, random graphs observe exactly
// what a sequential run in submit order observes, and every schedule runs to completion.
#include <gtest/gtest.h>

#include "runtime/engine/random_run.hpp"
#include "tests/engine/controlled_rig.hpp"
#include "tests/engine/random_dag.hpp"

namespace ordo::engine::testing {
namespace {

constexpr std::uint64_t seeds = 200;

TEST(ControlledSchedulerRandom, EveryScheduleMatchesSubmitOrderExecution) {
  for (std::uint64_t seed = 0; seed < seeds; ++seed) {
    const RandomDag dag = make_random_dag(seed, 5, 24, 2);
    const std::vector<dag::Pool> pools{dag::Pool{"a", 1 + static_cast<std::uint32_t>(seed % 3)},
                                       dag::Pool{"b", 2, dag::PoolKind::priority}};
    ControlledRig rig(pools);
    DagOutcome outcome;
    submit_dag(rig.engine, dag, outcome);
    const RandomRun run = take_random_decisions(rig.scheduler, seed, 10'000);
    ASSERT_TRUE(run.quiescent) << "seed " << seed;
    ASSERT_TRUE(rig.engine.all_done()) << "seed " << seed;
    ASSERT_EQ(outcome, run_in_submit_order(dag)) << "seed " << seed;
  }
}

}  // namespace
}  // namespace ordo::engine::testing
