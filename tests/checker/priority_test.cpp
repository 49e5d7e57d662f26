// Known answers for the priority design (ByteScheduler, P3): slices of keys in one chain, in an
// order fixed by the pushes, are safe by both checkers, closed or with steps that run into each
// other, and the symbolic stage says why that holds for runs of any length (Theorem 4). Without
// the chain, every slice goes into the comm pool's priority queue at once (what a hurried
// implementer writes), and the checker refutes it with a witness that replays on the runtime.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "checker/search/explore.hpp"
#include "checker/symbolic/decide.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/networks/catalog.hpp"
#include "tests/checker/expect_replays.hpp"
#include "tests/checker/jobs.hpp"

namespace ordo::checker::testing {
namespace {

using designs::DesignKind;
using Outcome = symbolic::SymbolicResult::Outcome;

constexpr ExploreLimits priority_limits{2'000'000, 120.0};

// Keys of 4 floats in slices of 2; one slice (8 bytes) released per push.
designs::DesignConfig priority(bool order_guard) {
  designs::DesignConfig c = config(DesignKind::priority, 2);
  c.slice_bytes = 8;
  c.credit_bytes = 8;
  c.order_guard = order_guard;
  return c;
}

std::vector<std::string> collective_submits(const dag::Job& job) {
  const dag::Program& p = job.programs.at(0);
  std::vector<std::string> names;
  for (const dag::Action& a : p.main) {
    if (const auto* s = std::get_if<dag::SubmitAction>(&a)) {
      const dag::Op& op = p.ops[s->op];
      if (op.collective) {
        names.push_back(op.name + "@" + std::to_string(op.collective->offset) + "+" +
                        std::to_string(op.collective->count));
      }
    }
  }
  return names;
}

bool has_fact(const symbolic::SymbolicResult& r, const std::string& text) {
  return std::any_of(r.facts.begin(), r.facts.end(),
                     [&](const std::string& f) { return f.find(text) != std::string::npos; });
}

void expect_priority_safe(const dag::Job& job, std::uint32_t ranks) {
  const System model(job, ranks);
  const Result result = explore(model, priority_limits);
  EXPECT_EQ(result.verdict, Verdict::safe) << report(model, result);
  EXPECT_GT(result.stats.states, result.stats.depth_max);  // the search did branch
  const symbolic::SymbolicResult r = symbolic::decide(model, {});
  EXPECT_EQ(r.outcome, Outcome::safe) << symbolic::report(model, r);
  EXPECT_TRUE(has_fact(r, "Theorem 4")) << symbolic::report(model, r);
}

TEST(CheckerPriority, AnEarlierLayerOvertakesTheSlicesStillWaiting) {
  // branches() pushes b, then a. b's first slice goes at b's push; at a's push a (key 0) comes
  // before b's second slice, which waits for the end of backward, behind a's.
  const dag::Job job = step_job(branches(), priority(true));
  EXPECT_EQ(collective_submits(job),
            (std::vector<std::string>{"allreduce_slice0.b.w@0+2", "allreduce_slice0.a.w@0+2",
                                      "allreduce_slice1.a.w@2+2", "allreduce_slice1.b.w@2+2"}));
  // Each key's update follows its last slice: a's before b's.
  const dag::Program& p = job.programs.at(0);
  std::vector<std::string> updates;
  for (const dag::Action& a : p.main) {
    const auto* s = std::get_if<dag::SubmitAction>(&a);
    if (s && p.ops[s->op].name.rfind("update.", 0) == 0) updates.push_back(p.ops[s->op].name);
  }
  EXPECT_EQ(updates, (std::vector<std::string>{"update.a.w", "update.b.w"}));
}

TEST(CheckerPriority, ALargeCreditIsTheBackwardOrderInSlices) {
  designs::DesignConfig c = priority(true);
  c.credit_bytes = 1 << 20;
  EXPECT_EQ(collective_submits(step_job(branches(), c)),
            (std::vector<std::string>{"allreduce_slice0.b.w@0+2", "allreduce_slice1.b.w@2+2",
                                      "allreduce_slice0.a.w@0+2", "allreduce_slice1.a.w@2+2"}));
  c.slice_bytes = 16;  // a key in one slice keeps depcha's name
  EXPECT_EQ(collective_submits(step_job(one_key(), c)),
            (std::vector<std::string>{"allreduce.a.w@0+4"}));
}

TEST(CheckerPriority, SafeAtTwoAndThreeRanks) {
  expect_priority_safe(step_job(branches(), priority(true)), 2);
  expect_priority_safe(step_job(branches(), priority(true)), 3);
}

TEST(CheckerPriority, OverlappedStepsAreSafe) {
  // Two steps with no wait for all between them: the second step's forward reads a's weight as
  // soon as a's update ran, while b's last slice may still be in flight.
  designs::StepOptions options;
  options.steps = 2;
  options.overlap = true;
  expect_priority_safe(designs::build_step_job(branches(), priority(true), options), 2);
}

TEST(CheckerPriority, OnlyChainedDesignsAreProvenForRunsOfAnyLength) {
  designs::StepOptions options;
  options.include_init = true;
  options.steps = 2;
  options.overlap = true;
  // funnel's main thread calls its allreduces itself: safe for these two steps, but its calls
  // are not ops writing one var, so Theorem 4 says nothing about longer runs.
  const dag::Job funnel = designs::build_step_job(branches(), config(DesignKind::funnel, 2), options);
  const System model(funnel, 2);
  const symbolic::SymbolicResult r = symbolic::decide(model, {});
  EXPECT_EQ(r.outcome, Outcome::safe) << symbolic::report(model, r);
  EXPECT_FALSE(has_fact(r, "Theorem 4")) << symbolic::report(model, r);
  const dag::Job depcha = designs::build_step_job(branches(), config(DesignKind::depcha, 2), options);
  const System depcha_model(depcha, 2);
  const symbolic::SymbolicResult d = symbolic::decide(depcha_model, {});
  EXPECT_EQ(d.outcome, Outcome::safe) << symbolic::report(depcha_model, d);
  // The init's broadcasts and the steps' allreduces: one chain per stretch.
  EXPECT_TRUE(has_fact(d, "'init.chain' and 'allreduce.chain'")) << symbolic::report(depcha_model, d);
}

TEST(CheckerPriority, SlicesInThePriorityQueueAloneAreRefutedAndTheWitnessReplays) {
  // Both keys' slices wait in the comm pool's priority queue; a rank whose b gradient is ready
  // first starts b's slice while its peer, with a's gradient ready too, starts a's.
  const dag::Job job = step_job(branches(), priority(false));
  const System model(job, 2);
  const Result result = explore(model, priority_limits);
  ASSERT_EQ(result.verdict, Verdict::unsafe) << report(model, result);
  expect_replays(job, 2, result);
  const symbolic::SymbolicResult r = symbolic::decide(model, {});
  EXPECT_EQ(r.outcome, Outcome::unsafe) << symbolic::report(model, r);
}

TEST(CheckerPriority, SafeOnResNet50AtEightRanksSymbolically) {
  designs::DesignConfig c;
  c.kind = DesignKind::priority;  // 1 MiB slices, 4 MiB of credit
  designs::StepOptions options;
  options.include_init = true;
  options.steps = 2;
  options.overlap = true;
  const dag::Job job =
      designs::build_step_job(*networks::builtin_network("resnet50"), c, options);
  const System model(job, 8);
  const symbolic::SymbolicResult r = symbolic::decide(model, {});
  EXPECT_EQ(r.outcome, Outcome::safe) << symbolic::report(model, r);
  EXPECT_TRUE(has_fact(r, "Theorem 4"));
}

}  // namespace
}  // namespace ordo::checker::testing
