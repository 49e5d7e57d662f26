// A checker witness and its replay on the runtime read and end alike: the pieces of the semantics'
// glue that both sides share, and the differences between the copies they replace, each of which
// these tests would have caught.
#include <gtest/gtest.h>

#include "checker/search/explore.hpp"
#include "tests/checker/jobs.hpp"

namespace ordo::checker::testing {
namespace {

constexpr ExploreLimits limits{100'000, 60.0};

// A main transition reads the same in the checker's witness and in the runtime's trace (one
// renderer, dag::describe_main: the checker's own, where it had no model, named a communicator by
// its number, and its deadlocks wrote "main: action 0: ...").
TEST(Replay, MainTransitionsReadAlikeInTheCheckerAndTheRuntime) {
  const dag::Job job = barrier_cycle();
  const Model model(job, 3);
  const Result result = explore(model, limits);
  ASSERT_EQ(result.verdict, Verdict::unsafe);
  exec::ControlledRun run(job, 3);
  std::vector<std::uint32_t> pc(3, 0);
  for (const dag::Transition& t : result.witness) {
    if (t.kind == dag::Transition::Kind::main) {
      EXPECT_EQ(run.describe(t), describe(model, t, pc[t.rank]++));
    }
    run.take(t);
  }
  const dag::Transition& first = result.witness.front();
  const auto& call = std::get<dag::CollectiveAction>(model.program(first.rank).main[0]);
  EXPECT_EQ(describe(model, first, 0), "rank " + std::to_string(first.rank) +
                                           ": main action 0: call barrier on '" +
                                           job.comms.at(call.collective.comm).name + "', key 0");
}

}  // namespace
}  // namespace ordo::checker::testing
