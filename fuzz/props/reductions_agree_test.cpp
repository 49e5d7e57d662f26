// The explicit checker's reductions (partial-order and symmetry, checker/reduction.hpp) must not
// change a verdict: every instance that the full search and the reduced search both decide gets
// the same answer from each. A reduction that pruned the only path to a violation would turn
// `unsafe` into `safe`, which the runtime's schedules in property 1 might never notice. Instances
// that either search leaves `unknown` are tagged and counted.
#include <gtest/gtest.h>
// rapidcheck/gtest.h needs GoogleTest declared first.
#include <rapidcheck/gtest.h>

#include <string>

#include "checker/search/explore.hpp"
#include "fuzz/lib/budget.hpp"
#include "fuzz/lib/verdicts.hpp"
#include "fuzz/props/families.hpp"

namespace ordo::fuzz {
namespace {

void check_reductions_agree(const rc::Gen<Instance>& family) {
  const Instance instance = *family;
  const Decision reduced = decide(instance);
  if (reduced.rejected) {
    RC_TAG("rejected");
    return;
  }
  const checker::System& model = *reduced.model;
  const checker::Result full = checker::explore(model, explore_limits(), {false, false});
  RC_TAG("reduced " + verdict_tag(reduced.result), "full " + verdict_tag(full));
  const checker::Verdict a = reduced.result.verdict;
  const checker::Verdict b = full.verdict;
  if (a == checker::Verdict::unknown || b == checker::Verdict::unknown) return;
  if (a != b) {
    RC_FAIL("the reduced search says " + std::string(checker::to_string(a)) + ", the full search " +
            std::string(checker::to_string(b)) + "\nreduced:\n" +
            checker::report(model, reduced.result) + "\nfull:\n" + checker::report(model, full));
  }
}

RC_GTEST_PROP(ReductionsAgree, DesignJobs, ()) { check_reductions_agree(design_jobs()); }
RC_GTEST_PROP(ReductionsAgree, HeterogeneousJobs, ()) {
  check_reductions_agree(heterogeneous_jobs());
}
RC_GTEST_PROP(ReductionsAgree, RawPrograms, ()) { check_reductions_agree(raw_jobs()); }

RC_GTEST_PROP(ReductionsAgree, RacyJobs, ()) { check_reductions_agree(racy_jobs()); }
RC_GTEST_PROP(ReductionsAgree, MessageJobs, ()) { check_reductions_agree(message_jobs()); }

}  // namespace
}  // namespace ordo::fuzz
