// Property 1: when the checker proves a job safe, the runtime never contradicts it. Every
// schedule tried on the controlled run, uniformly random walks and PCT runs alike, must finish:
// no mismatch, no thread-rule break, no deadlock, no failed rank, no runaway. Instances the
// checker finds unsafe or cannot decide establish nothing here; they are tagged and counted.
#include <gtest/gtest.h>
// rapidcheck/gtest.h needs GoogleTest declared first.
#include <rapidcheck/gtest.h>

#include "fuzz/lib/budget.hpp"
#include "fuzz/lib/schedule_mix.hpp"
#include "fuzz/lib/schedule_tally.hpp"
#include "fuzz/lib/verdicts.hpp"
#include "fuzz/props/families.hpp"

namespace ordo::fuzz {
namespace {

void check_safe_runs_clean(const rc::Gen<Instance>& family) {
  const Instance instance = *family;
  const std::uint64_t seed = *rc::gen::noShrink(rc::gen::arbitrary<std::uint64_t>());
  const Decision decision = decide(instance);
  RC_TAG(verdict_tag(decision));
  if (decision.result.verdict != checker::Verdict::safe) return;
  const ScheduleSummary summary =
      run_schedules(instance.job, instance.ranks, instance.backend, seed, schedules_per_instance());
  tally(summary);
  if (summary.failing) {
    const ScheduleRun& bad = *summary.failing;
    RC_FAIL("the checker says safe (" + std::to_string(decision.result.stats.states) +
            " states), but the " + bad.choice.name() + " schedule ended in " +
            std::string(run_end_words(bad.outcome.end)) + ":\n" + bad.outcome.report +
            "\nschedule:\n" +
            transitions_text(instance.job, instance.ranks, instance.backend, bad.transitions));
  }
}

RC_GTEST_PROP(SafeRunsClean, DesignJobs, ()) { check_safe_runs_clean(design_jobs()); }

RC_GTEST_PROP(SafeRunsClean, HeterogeneousJobs, ()) { check_safe_runs_clean(heterogeneous_jobs()); }

RC_GTEST_PROP(SafeRunsClean, RawPrograms, ()) { check_safe_runs_clean(raw_jobs()); }

RC_GTEST_PROP(SafeRunsClean, RacyJobs, ()) { check_safe_runs_clean(racy_jobs()); }
RC_GTEST_PROP(SafeRunsClean, MessageJobs, ()) { check_safe_runs_clean(message_jobs()); }

// The same families under the NCCL semantics (docs/semantics.md, §3a).
RC_GTEST_PROP(SafeRunsClean, DesignJobsOnStreams, ()) { check_safe_runs_clean(on_streams(design_jobs())); }

RC_GTEST_PROP(SafeRunsClean, RawProgramsOnStreams, ()) { check_safe_runs_clean(on_streams(raw_jobs())); }

RC_GTEST_PROP(SafeRunsClean, RacyJobsOnStreams, ()) { check_safe_runs_clean(on_streams(racy_jobs())); }

}  // namespace
}  // namespace ordo::fuzz
