// Property 7: when the checker proves a job safe, the production scheduler agrees. Each safe
// instance runs on real threads (thread pools with helping waits, a simulated world with its
// deadlock watchdog) twice: as pushed, and with every rank's main thread inside one push batch,
// which defers worker wake-ups to the main thread's waits and collectives. A batch only delays
// when ready ops start, so neither run may end in a mismatch, a thread-rule break, a deadlock, a
// failed rank, or a hang (the test's timeout).
#include <gtest/gtest.h>
// rapidcheck/gtest.h needs GoogleTest declared first.
#include <rapidcheck/gtest.h>

#include <string>

#include "fuzz/gen/design_jobs.hpp"
#include "fuzz/gen/raw_program.hpp"
#include "fuzz/props/verdicts.hpp"
#include "fuzz/sched/schedules.hpp"
#include "runtime/exec/threaded_run.hpp"

namespace ordo::fuzz {
namespace {

void check_threaded_runs_clean(const rc::Gen<Instance>& family) {
  const Instance instance = *family;
  const Decision decision = decide(instance);
  RC_TAG(verdict_tag(decision.result));
  if (decision.result.verdict != checker::Verdict::safe) return;
  for (const bool batched : {false, true}) {
    exec::ThreadedOptions options;
    options.batch_main = batched;
    const exec::ThreadedOutcome outcome = exec::run_threaded(instance.job, instance.ranks, options);
    if (outcome.end != exec::RunEnd::finished) {
      RC_FAIL("the checker says safe, but the threaded run" +
              std::string(batched ? " with push batches" : "") + " ended in " +
              std::string(to_string(outcome.end)) + ":\n" + outcome.report);
    }
  }
}

RC_GTEST_PROP(ThreadedRunsClean, DesignJobs, ()) { check_threaded_runs_clean(design_jobs()); }

RC_GTEST_PROP(ThreadedRunsClean, HeterogeneousJobs, ()) {
  check_threaded_runs_clean(heterogeneous_jobs());
}

RC_GTEST_PROP(ThreadedRunsClean, RawPrograms, ()) { check_threaded_runs_clean(raw_jobs()); }

}  // namespace
}  // namespace ordo::fuzz
