#include "tests/fuzz_cmd/fuzz_jobs.hpp"

#include "runtime/designs/step_builder.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::fuzz::testing {

dag::Job mlp_step(designs::DesignKind kind, std::uint32_t comm_threads) {
  designs::DesignConfig c;
  c.kind = kind;
  c.comm_threads = comm_threads;
  return designs::build_step_job(networks::mlp(2, 8, 1.0), c, {});
}

Decider forged(checker::Verdict verdict) {
  return [verdict](const checker::System& model, const checker::VerifyOptions&) {
    checker::Verification v;
    v.result.verdict = verdict;
    v.result.ranks = model.ranks();
    if (verdict == checker::Verdict::unknown) v.result.bound = checker::Bound::seconds_max;
    return v;
  };
}

}  // namespace ordo::fuzz::testing
