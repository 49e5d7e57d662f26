// Property 3: the symbolic checker (happens-before graphs and Z3, checker/symbolic/decide.hpp)
// and explicit search never contradict each other. When both decide, they give the same verdict;
// an unsafe answer from the symbolic side carries a witness that replays on the runtime into the
// violation it names; a safe answer from it holds on the runtime under random and PCT schedules,
// which checks it even where explicit search runs out of states. Undecided answers on either
// side are tagged and counted.
#include <gtest/gtest.h>
// rapidcheck/gtest.h needs GoogleTest declared first.
#include <rapidcheck/gtest.h>

#include <string>

#include "checker/symbolic/decide.hpp"
#include "fuzz/lib/budget.hpp"
#include "fuzz/lib/schedule_mix.hpp"
#include "fuzz/lib/schedule_tally.hpp"
#include "fuzz/lib/verdicts.hpp"
#include "fuzz/lib/witness_replay.hpp"
#include "fuzz/props/families.hpp"

namespace ordo::fuzz {
namespace {

using Outcome = checker::symbolic::SymbolicResult::Outcome;

void check_symbolic_agrees(const rc::Gen<Instance>& family) {
  const Instance instance = *family;
  const std::uint64_t seed = *rc::gen::noShrink(rc::gen::arbitrary<std::uint64_t>());
  const Decision explicit_search = decide(instance);
  if (explicit_search.rejected) {
    RC_TAG("rejected");
    return;
  }
  const checker::System& model = *explicit_search.model;
  const checker::symbolic::SymbolicResult symbolic =
      checker::symbolic::decide(model, {explore_limits().seconds_max, 20'000});
  RC_TAG("explicit " + verdict_tag(explicit_search.result),
         "symbolic " + std::string(checker::symbolic::to_string(symbolic.outcome)));
  if (symbolic.outcome == Outcome::undecided) return;
  const std::string both = "symbolic:\n" + checker::symbolic::report(model, symbolic) +
                           "\nexplicit:\n" + checker::report(model, explicit_search.result);
  const checker::Verdict verdict = explicit_search.result.verdict;
  if (symbolic.outcome == Outcome::safe && verdict == checker::Verdict::unsafe) {
    RC_FAIL("the symbolic checker proves safe what explicit search refutes\n" + both);
  }
  if (symbolic.outcome == Outcome::unsafe && verdict == checker::Verdict::safe) {
    RC_FAIL("the symbolic checker refutes what explicit search proves safe\n" + both);
  }
  if (symbolic.outcome == Outcome::unsafe) {
    if (auto problem = replay_problem(instance, model, symbolic.result)) {
      RC_FAIL("the symbolic witness does not replay: " + *problem);
    }
    return;
  }
  const ScheduleSummary summary =
      run_schedules(instance.job, instance.ranks, instance.backend, seed, schedules_per_instance());
  tally(summary);
  if (summary.failing) {
    const ScheduleRun& bad = *summary.failing;
    RC_FAIL("the symbolic checker says safe, but the " + bad.choice.name() + " schedule ended in " +
            std::string(run_end_words(bad.outcome.end)) + ":\n" + bad.outcome.report +
            "\nschedule:\n" +
            transitions_text(instance.job, instance.ranks, instance.backend, bad.transitions) +
            "\n" + both);
  }
}

RC_GTEST_PROP(SymbolicAgrees, DesignJobs, ()) { check_symbolic_agrees(design_jobs()); }
RC_GTEST_PROP(SymbolicAgrees, HeterogeneousJobs, ()) {
  check_symbolic_agrees(heterogeneous_jobs());
}
RC_GTEST_PROP(SymbolicAgrees, RawPrograms, ()) { check_symbolic_agrees(raw_jobs()); }

// One-thread FIFO pools are where the FIFO-dispatch edges (docs/symbolic.md, Lemma 4) decide.
RC_GTEST_PROP(SymbolicAgrees, RacyJobs, ()) { check_symbolic_agrees(racy_jobs()); }

}  // namespace
}  // namespace ordo::fuzz
