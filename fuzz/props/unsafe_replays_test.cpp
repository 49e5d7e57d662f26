// Property 2: when the checker finds a job unsafe, its witness is a schedule the runtime accepts
// transition by transition, and on the controlled run it ends exactly where the checker says: in a
// mismatch on the same communicator and call, a thread-rule break by the same two issuers, or a
// state with no legal transition. Safe and unknown instances are tagged and counted.
#include <gtest/gtest.h>
// rapidcheck/gtest.h needs GoogleTest declared first.
#include <rapidcheck/gtest.h>

#include "fuzz/lib/verdicts.hpp"
#include "fuzz/lib/witness_replay.hpp"
#include "fuzz/props/families.hpp"

namespace ordo::fuzz {
namespace {

void check_unsafe_replays(const rc::Gen<Instance>& family) {
  const Instance instance = *family;
  const Decision decision = decide(instance);
  RC_TAG(verdict_tag(decision));
  if (decision.result.verdict != checker::Verdict::unsafe) return;
  if (const std::optional<std::string> problem =
          replay_problem(instance, *decision.model, decision.result)) {
    RC_FAIL(*problem);
  }
}

RC_GTEST_PROP(UnsafeReplays, DesignJobs, ()) { check_unsafe_replays(design_jobs()); }

RC_GTEST_PROP(UnsafeReplays, HeterogeneousJobs, ()) { check_unsafe_replays(heterogeneous_jobs()); }

RC_GTEST_PROP(UnsafeReplays, RawPrograms, ()) { check_unsafe_replays(raw_jobs()); }

RC_GTEST_PROP(UnsafeReplays, RacyJobs, ()) { check_unsafe_replays(racy_jobs()); }
RC_GTEST_PROP(UnsafeReplays, MessageJobs, ()) { check_unsafe_replays(message_jobs()); }

// The same families under the NCCL semantics (docs/semantics.md, §3a).
RC_GTEST_PROP(UnsafeReplays, DesignJobsOnStreams, ()) { check_unsafe_replays(on_streams(design_jobs())); }

RC_GTEST_PROP(UnsafeReplays, RawProgramsOnStreams, ()) { check_unsafe_replays(on_streams(raw_jobs())); }

RC_GTEST_PROP(UnsafeReplays, RacyJobsOnStreams, ()) { check_unsafe_replays(on_streams(racy_jobs())); }

}  // namespace
}  // namespace ordo::fuzz
