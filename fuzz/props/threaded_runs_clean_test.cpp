// Property 7: when the checker proves a job safe, the production scheduler agrees. Each safe
// instance runs on real threads (thread pools with helping waits, a simulated world with its
// deadlock watchdog): as submitted, and with every rank's main thread inside one submit batch,
// which defers worker wake-ups to the main thread's waits and collectives. A batch only delays when
// ready ops start, so no run may end in a mismatch, a thread-rule break, a deadlock, a failed rank,
// or a hang (the test's timeout). The runs sleep a random moment before each collective op issues
// its call (BodyOptions::issue_jitter_us): the runtime has that window between claim and issue
// anyway, and without widening it an order the checker missed showed up about once in thirty runs
// of a targeted job and once in a thousand of a design, too rarely for a property that runs a job a
// few times. A job the checker refuses as invalid at its rank count must fail on the runtime too.
// Each run's simulated world returns calls at their match, or as early as the standard allows
// (docs/semantics.md, C4), every call or drawn per call from a seed: a safe job is safe under
// every completion MPI may give its calls.
#include <gtest/gtest.h>
// rapidcheck/gtest.h needs GoogleTest declared first.
#include <rapidcheck/gtest.h>

#include <string>

#include "fuzz/lib/schedule_mix.hpp"
#include "fuzz/lib/verdicts.hpp"
#include "fuzz/props/families.hpp"
#include "runtime/exec/threaded_run.hpp"
#include "tests/common/sanitizers.hpp"

namespace ordo::fuzz {
namespace {

constexpr std::uint32_t issue_jitter_us = 200;

// A refused job fails on every rank, and its errors travel between threads as exception_ptr.
// The standard library frees such an exception after an atomic reference-count decrement that
// ThreadSanitizer cannot see (the library is not instrumented), so the free is reported as racing
// with another thread's earlier read of the message. The release build checks refused jobs; the
// ThreadSanitizer build checks the safe ones, which throw nothing.
constexpr bool thread_sanitizer = ordo::testing::under_thread_sanitizer;

void check_threaded_runs_clean(const rc::Gen<Instance>& family, int rounds) {
  const Instance instance = *family;
  const Decision decision = decide(instance);
  RC_TAG(verdict_tag(decision));
  if (decision.rejected) {
    if (thread_sanitizer) return;
    exec::ThreadedOptions options;
    options.body.issue_jitter_us = issue_jitter_us;
    const exec::ThreadedOutcome outcome = exec::run_threaded(instance.job, instance.ranks, options);
    if (outcome.end == exec::RunEnd::finished) {
      RC_FAIL("the checker refused the job (" + *decision.rejected +
              "), but the threaded run finished cleanly");
    }
    return;
  }
  if (decision.result.verdict != checker::Verdict::safe) return;
  const std::uint64_t seed = *rc::gen::arbitrary<std::uint64_t>();
  for (int round = 0; round < rounds; ++round) {
    for (const bool batched : {false, true}) {
      exec::ThreadedOptions options;
      options.batch_main = batched;
      options.body.issue_jitter_us = issue_jitter_us;
      // Unbatched runs alternate the match and per-call draws; batched ones return every call
      // early or draw, as the seed says, so every instance meets two of the three.
      const comm::sim::ReturnPolicy at_match{};
      const comm::sim::ReturnPolicy all_early{comm::sim::Returns::early, 0};
      const comm::sim::ReturnPolicy drawn{comm::sim::Returns::early, seed | 1u};
      if (batched) {
        options.returns = (seed & 2u) != 0 ? all_early : drawn;
      } else {
        options.returns = round % 2 == 0 ? at_match : drawn;
      }
      const exec::ThreadedOutcome outcome =
          exec::run_threaded(instance.job, instance.ranks, options);
      if (outcome.end != exec::RunEnd::finished) {
        RC_FAIL("the checker says safe, but threaded run " + std::to_string(round + 1) +
                std::string(batched ? " with submit batches" : "") + " (" +
                comm::sim::describe(options.returns) + ") ended in " +
                std::string(run_end_words(outcome.end)) + ":\n" + outcome.report);
      }
    }
  }
}

RC_GTEST_PROP(ThreadedRunsClean, DesignJobs, ()) { check_threaded_runs_clean(design_jobs(), 1); }

RC_GTEST_PROP(ThreadedRunsClean, HeterogeneousJobs, ()) {
  check_threaded_runs_clean(heterogeneous_jobs(), 1);
}

RC_GTEST_PROP(ThreadedRunsClean, RawPrograms, ()) { check_threaded_runs_clean(raw_jobs(), 1); }

// Collective ops on pools of several threads, mixed blocking forms, roots at the communicator's
// edge: each safe job runs several times, since what it tests is a race.
RC_GTEST_PROP(ThreadedRunsClean, RacyJobs, ()) { check_threaded_runs_clean(racy_jobs(), 4); }
RC_GTEST_PROP(ThreadedRunsClean, MessageJobs, ()) { check_threaded_runs_clean(message_jobs(), 4); }

}  // namespace
}  // namespace ordo::fuzz
