// Adversarial cases aimed at the FIFO-dispatch edges of the symbolic stage (docs/symbolic.md,
// Lemma 4) and at the split of a collective op's claim from its issue: ops made ready by one
// event, by a completion on another pool, through a var another pool writes, computes between
// async and blocking collectives on one thread, main-thread waits and calls between submissions,
// priority pools and pools of several threads (which must get no edge), per-rank programs and
// sub-communicators. Each answer in adversarial_cases/manifest.json was derived by hand from
// docs/semantics.md before the checker ran, so a checker that drifts from the contract fails here
// rather than having its answer copied into the manifest.
//
// A `safe` answer is then held to the production scheduler: the job runs on real threads
// (exec::run_threaded, the simulated world with its deadlock watchdog) many times, with the
// collective bodies jittered so that the window between claim and issue (S3) opens wide, with
// and without each rank's main thread inside one submit batch. A wrong `safe` is the costliest
// defect the checker can have, and this is where it would show. An `unsafe` answer must come
// with a witness that the controlled run reproduces.
#include <gtest/gtest.h>

#include <cctype>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "checker/search/verdict.hpp"
#include "checker/verify/verify.hpp"
#include "checker/witness/trace_io.hpp"
#include "replay/replay.hpp"
#include "runtime/dag/dump_reader.hpp"
#include "runtime/exec/controlled_run.hpp"
#include "runtime/exec/threaded_run.hpp"
#include "tests/common/case_manifest.hpp"
#include "tests/common/sanitizers.hpp"

namespace ordo::exec {
namespace {

const std::string cases_dir = ORDO_ADVERSARIAL_CASES;

// The runs per safe case and per batching mode. 200 keeps the whole suite near 15 s on a
// two-core machine, and a rare interleaving gets that many chances; under a sanitizer, which
// runs about ten times slower and looks for memory faults rather than orders, a tenth.
constexpr int sanitizer_divisor =
    ordo::testing::under_address_sanitizer || ordo::testing::under_thread_sanitizer ? 10 : 1;
constexpr int runs_per_mode = 200 / sanitizer_divisor;
// A safe verdict "at every rank count" is tried at one more rank than the count verified, where
// a claim that silently depends on the count would first break.
constexpr int runs_at_more_ranks = 50 / sanitizer_divisor;

using Case = ordo::testing::ManifestCase;

// Runs the job `runs` times in each batching mode; the first run that does not finish fails
// the test with the runtime's own report, so one bad schedule is enough to see the disagreement.
void expect_every_run_finishes(const dag::Job& job, std::uint32_t ranks, int runs,
                               const std::string& checker_report) {
  for (const bool batch : {false, true}) {
    ThreadedOptions options;
    options.body.issue_jitter_us = 200;
    options.batch_main = batch;
    for (int i = 0; i < runs; ++i) {
      const ThreadedOutcome out = run_threaded(job, ranks, options);
      ASSERT_EQ(out.end, RunEnd::finished)
          << "checker said safe, but run " << i << " at " << ranks << " ranks"
          << (batch ? " with" : " without") << " batch_main ended in " << static_cast<int>(out.end)
          << ": " << out.report << "\nchecker:\n"
          << checker_report;
    }
  }
}

class AdversarialCase : public ::testing::TestWithParam<Case> {};

TEST_P(AdversarialCase, HandDerivedVerdictHoldsOnTheRuntime) {
  const Case& c = GetParam();
  const dag::Job job = dag::read_dump_file(cases_dir + "/" + c.file);
  const std::uint32_t ranks = c.ranks.value_or(job.ranks.value_or(2));
  const checker::System model(job, ranks);
  checker::VerifyOptions options;
  options.limits.seconds_max = ordo::testing::case_seconds_max;
  const checker::Verification v = checker::verify(model, options);
  const std::string report = checker::human_report(model, v);
  ASSERT_EQ(checker::to_string(v.result.verdict), c.expect) << report;

  if (c.expect == "unsafe") {
    ASSERT_TRUE(v.result.property.has_value()) << report;
    if (c.property) {
      EXPECT_EQ(checker::short_name(*v.result.property), *c.property) << report;
    }
    ControlledRun run(model.job(), ranks);
    const replay::Replay r = replay::replay(run, v.result.witness);
    ASSERT_FALSE(r.illegal) << *r.illegal << "\n" << report;
    const std::optional<std::string> problem = replay::problem(r, v.result);
    EXPECT_FALSE(problem) << *problem << "\n" << report;
    return;
  }

  expect_every_run_finishes(model.job(), ranks, runs_per_mode, report);
  // "Safe at every rank count" is a claim about counts never verified; the job fixes no count
  // then, so it runs as it is one rank up.
  if (v.every_rank_count && !job.ranks) {
    expect_every_run_finishes(model.job(), ranks + 1, runs_at_more_ranks, report);
  }
}

INSTANTIATE_TEST_SUITE_P(Manifest, AdversarialCase,
                         ::testing::ValuesIn(ordo::testing::read_case_manifest(cases_dir)),
                         ordo::testing::case_test_name);

}  // namespace
}  // namespace ordo::exec
