// The agreement property on one case (fuzz/lib/agreement.hpp), with the real checker
// and with forged ones: a checker that calls an unsafe job safe is caught by the runtime's
// schedules, and the failing schedule, turned into a witness on the model and shrunk, reproduces.
#include <gtest/gtest.h>

#include <variant>

#include "checker/search/confirm_witness.hpp"
#include "fuzz/lib/runtime_witness.hpp"
#include "replay/replay.hpp"
#include "tests/fuzz_cmd/fuzz_jobs.hpp"

namespace ordo::fuzz::testing {
namespace {

using designs::DesignKind;

CaseBudget small_budget() {
  CaseBudget budget;
  budget.checker_seconds = 20.0;
  budget.schedules = 40;
  return budget;
}

// The witness ends on the runtime in the violation it names.
void expect_reproduces(const FuzzCase& c, const checker::Result& witness) {
  exec::ControlledRun run(c.job, c.ranks);
  const replay::Replay r = replay::replay(run, witness.witness);
  EXPECT_FALSE(r.illegal.has_value()) << *r.illegal;
  const std::optional<std::string> problem = replay::problem(r, witness);
  EXPECT_FALSE(problem) << *problem;
}

TEST(FuzzAgreement, ASafeJobAgreesOnEverySchedule) {
  const FuzzCase c{"job", "", mlp_step(DesignKind::depcha, 2), 2};
  const checker::System model(c.job, c.ranks);
  const CaseOutcome o = check_case(c, model, checker::verify, small_budget(), 1);
  EXPECT_EQ(o.verdict, CaseVerdict::safe) << o.message;
  EXPECT_EQ(o.schedules_run, 40u);
  EXPECT_FALSE(o.witness.has_value());
}

TEST(FuzzAgreement, AnUnsafeJobGivesAWitnessThatReproduces) {
  const FuzzCase c{"job", "", mlp_step(DesignKind::naive, 2), 2};
  const checker::System model(c.job, c.ranks);
  const CaseOutcome o = check_case(c, model, checker::verify, small_budget(), 1);
  ASSERT_EQ(o.verdict, CaseVerdict::unsafe) << o.message;
  ASSERT_TRUE(o.witness.has_value());
  EXPECT_NO_THROW(checker::confirm_witness(model, *o.witness));
  expect_reproduces(c, *o.witness);
}

TEST(FuzzAgreement, ACheckerThatCallsAnUnsafeJobSafeDisagreesWithTheRuntime) {
  const FuzzCase c{"job", "", mlp_step(DesignKind::naive, 2), 2};
  const checker::System model(c.job, c.ranks);
  const CaseOutcome o = check_case(c, model, forged(checker::Verdict::safe), small_budget(), 1);
  ASSERT_EQ(o.verdict, CaseVerdict::disagreement) << o.message;
  EXPECT_NE(o.message.find("its search missed it"), std::string::npos) << o.message;
  ASSERT_TRUE(o.failing.has_value());
  // The failing schedule, shrunk on the model, still ends where the runtime ended.
  ASSERT_TRUE(o.witness.has_value());
  EXPECT_LE(o.witness->witness.size(), o.failing->transitions.size());
  EXPECT_NO_THROW(checker::confirm_witness(model, *o.witness));
  expect_reproduces(c, *o.witness);
}

TEST(FuzzAgreement, ARuntimeFailureTheCheckerCouldNotDecideIsAFinding) {
  const FuzzCase c{"job", "", mlp_step(DesignKind::naive, 2), 2};
  const checker::System model(c.job, c.ranks);
  const CaseOutcome o = check_case(c, model, forged(checker::Verdict::unknown), small_budget(), 1);
  ASSERT_EQ(o.verdict, CaseVerdict::unsafe) << o.message;
  EXPECT_NE(o.message.find("found by the runtime"), std::string::npos) << o.message;
  ASSERT_TRUE(o.witness.has_value());
  expect_reproduces(c, *o.witness);
}

TEST(FuzzAgreement, AnUndecidedJobWhoseSchedulesFinishIsUnknown) {
  const FuzzCase c{"job", "", mlp_step(DesignKind::depcha, 2), 2};
  const checker::System model(c.job, c.ranks);
  const CaseOutcome o = check_case(c, model, forged(checker::Verdict::unknown), small_budget(), 1);
  EXPECT_EQ(o.verdict, CaseVerdict::unknown) << o.message;
  EXPECT_EQ(o.schedules_run, 40u);
}

TEST(FuzzAgreement, AnUnsafeAnswerWhoseWitnessDoesNotReproduceDisagrees) {
  const FuzzCase c{"job", "", mlp_step(DesignKind::depcha, 2), 2};
  const checker::System model(c.job, c.ranks);
  // A checker that claims a deadlock before anything ran.
  const Decider bogus = [](const checker::System& m, const checker::VerifyOptions&) {
    checker::Verification v;
    v.result.verdict = checker::Verdict::unsafe;
    v.result.ranks = m.ranks();
    v.result.property = checker::Property::p3_deadlock;
    v.result.violation = comm::Deadlock{};
    return v;
  };
  const CaseOutcome o = check_case(c, model, bogus, small_budget(), 1);
  EXPECT_EQ(o.verdict, CaseVerdict::disagreement) << o.message;
  EXPECT_NE(o.message.find("does not reproduce on the runtime"), std::string::npos) << o.message;
}

TEST(FuzzAgreement, AFailingScheduleIsAWitnessOnTheModel) {
  const FuzzCase c{"job", "", mlp_step(DesignKind::naive, 2), 2};
  const checker::System model(c.job, c.ranks);
  std::optional<ScheduleRun> failing;
  for (std::uint64_t i = 0; i < 40 && !failing; ++i) {
    ScheduleRun run = run_schedule(c.job, c.ranks, comm::Backend::mpi, schedule_choice(9, i));
    if (run.outcome.end != exec::RunEnd::finished) failing = std::move(run);
  }
  ASSERT_TRUE(failing.has_value()) << "no schedule of 40 broke naive";
  const auto seen = model_witness(model, *failing);
  ASSERT_TRUE(std::holds_alternative<checker::Result>(seen)) << std::get<std::string>(seen);
  const checker::Result& result = std::get<checker::Result>(seen);
  EXPECT_TRUE(comm::same_violation(*result.violation, *failing->violation));
  const checker::Result shorter = shrink(model, result, 5.0);
  EXPECT_LE(shorter.witness.size(), result.witness.size());
  EXPECT_EQ(shorter.property, result.property);
  EXPECT_NO_THROW(checker::confirm_witness(model, shorter));
}

TEST(FuzzAgreement, SchedulesAlternateRandomWalksAndPctDepths) {
  for (std::uint64_t i = 0; i < 12; ++i) {
    const ScheduleChoice s = schedule_choice(1, i);
    EXPECT_EQ(s.pct, i % 2 == 1);
    if (s.pct) {
      EXPECT_EQ(s.depth, 1 + (i / 2) % 3);
    }
    EXPECT_EQ(s.seed, schedule_choice(1, i).seed);
    EXPECT_NE(s.seed, schedule_choice(2, i).seed);
  }
}

}  // namespace
}  // namespace ordo::fuzz::testing
