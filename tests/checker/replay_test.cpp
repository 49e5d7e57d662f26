// A checker witness and its replay on the runtime read and end alike: the pieces of the semantics'
// glue that both sides share, and the differences between the copies they replace, each of which
// these tests would have caught.
#include "replay/replay.hpp"

#include <gtest/gtest.h>

#include "checker/search/explore.hpp"
#include "tests/checker/jobs.hpp"

namespace ordo::checker::testing {
namespace {

constexpr ExploreLimits limits{100'000, 60.0};

Result deadlock_result(const System& model) {
  Result result = explore(model, limits);
  EXPECT_EQ(result.verdict, Verdict::unsafe) << report(model, result);
  EXPECT_EQ(result.property, Property::p3_deadlock) << report(model, result);
  return result;
}

// The one replay (replay/replay.hpp) takes the witness and judges where the runtime ends.
TEST(Replay, ACheckerDeadlockReproducesWithItsWholeDescription) {
  const dag::Job job = allreduce_counts(2, 1);
  const System model(job, 2);
  const Result result = deadlock_result(model);
  exec::ControlledRun run(job, 2);
  const replay::Replay r = replay::replay(run, result.witness);
  EXPECT_EQ(r.transitions_taken, result.witness.size());
  EXPECT_EQ(r.seen, Property::p3_deadlock);
  const std::optional<std::string> problem = replay::problem(r, result);
  EXPECT_FALSE(problem) << *problem;
}

// Deadlocks compared by their blocked ranks only let a runtime that stopped elsewhere, with the
// same ranks blocked, pass for the checker's deadlock.
TEST(Replay, TheSameBlockedRanksInAnotherStateDoNotReproduce) {
  const dag::Job job = allreduce_counts(2, 1);
  const System model(job, 2);
  Result result = deadlock_result(model);
  auto& claimed = std::get<comm::Deadlock>(*result.violation);
  ASSERT_FALSE(claimed.ops.empty());
  claimed.ops.front().thread.reset();  // the op no longer on its thread: another state
  exec::ControlledRun run(job, 2);
  const replay::Replay r = replay::replay(run, result.witness);
  const std::optional<std::string> problem = replay::problem(r, result);
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("a different violation"), std::string::npos) << *problem;
  EXPECT_FALSE(replay::reproduces(r, result));
}

// The witness's last transition leads to the violation: a run that ends before it does is not
// the witness's (tools/replay accepted it for `ordo replay` and `ordo fuzz`, the fuzz properties'
// own replay did not).
TEST(Replay, ARunThatEndsBeforeTheWitnessDoesNotReproduce) {
  const dag::Job job = allreduce_counts(2, 1);
  const System model(job, 2);
  Result result = deadlock_result(model);
  ASSERT_FALSE(result.witness.empty());
  result.witness.push_back(result.witness.back());
  exec::ControlledRun run(job, 2);
  const replay::Replay r = replay::replay(run, result.witness);
  EXPECT_EQ(r.transitions_taken + 1, result.witness.size());
  const std::optional<std::string> problem = replay::problem(r, result);
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("ended after"), std::string::npos) << *problem;
}

// A main transition reads the same in the checker's witness and in the runtime's trace (one
// renderer, dag::describe_main: the checker's own, where it had no model, named a communicator by
// its number, and its deadlocks wrote "main: action 0: ...").
TEST(Replay, MainTransitionsReadAlikeInTheCheckerAndTheRuntime) {
  const dag::Job job = barrier_cycle();
  const System model(job, 3);
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

// P3 or P4 is the description's, on every side: `ordo replay` called every runtime deadlock P3,
// and so did the fuzz campaign's account of a runtime run.
TEST(Replay, ADeadlockIsP3ExactlyWhenACallTakesPart) {
  comm::Deadlock alone;
  alone.ranks_blocked = {0};
  comm::MainWait waits;
  waits.doing = "main action 1: wait for all";
  waits.ops_incomplete = 1;
  alone.mains = {waits};
  EXPECT_FALSE(comm::collective_involved(alone));
  EXPECT_EQ(property_of(alone), Property::p4_termination);

  comm::Deadlock waiting = alone;
  comm::CallWait call;
  call.call.issuer = comm::Issuer{0, "ar"};
  call.comm_name = "world";
  call.waiting_for = {1};
  waiting.calls.push_back(call);
  EXPECT_TRUE(comm::collective_involved(waiting));
  EXPECT_EQ(property_of(waiting), Property::p3_deadlock);

  comm::Deadlock held = alone;
  comm::StreamWait stream;
  stream.launches = 1;
  stream.party = "ar";
  stream.comm_name = "world";
  stream.matched = true;
  stream.waiting_for = {1};
  held.streams.push_back(stream);
  EXPECT_EQ(property_of(held), Property::p3_deadlock);
}

}  // namespace
}  // namespace ordo::checker::testing
