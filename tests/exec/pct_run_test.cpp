// PCT over the controlled run (runtime/exec/pct_run.hpp): its k, the length of every finished
// run, is exact on the designs under both backends, and a seed names one schedule.
#include "runtime/exec/pct_run.hpp"

#include <gtest/gtest.h>

#include "runtime/designs/step_builder.hpp"
#include "tests/checker/jobs.hpp"

namespace ordo::exec::testing {
namespace {

using designs::DesignKind;

dag::Job pct_design_job(DesignKind kind) {
  return designs::build_step_job(checker::testing::branches(), checker::testing::config(kind, 2),
                                 {});
}

TEST(PctRun, FinishedRunTransitionsIsTheLengthOfEveryFinishedRun) {
  for (const DesignKind kind :
       {DesignKind::funnel, DesignKind::depcha, DesignKind::concom, DesignKind::nonblocking}) {
    for (const comm::Backend backend : {comm::Backend::mpi, comm::Backend::nccl}) {
      const dag::Job job = pct_design_job(kind);
      const std::uint64_t k = finished_run_transitions(job, 2);
      int finished = 0;
      for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        ControlledRun run(job, 2, {}, backend);
        const RunOutcome end =
            run_pct(run, {1 + static_cast<std::uint32_t>(seed % 3), seed, k, 2 * k + 64});
        if (end.end != RunEnd::finished) continue;  // concom deadlocks under nccl
        ++finished;
        EXPECT_EQ(run.trace().size(), k) << designs::to_string(kind) << " under "
                                         << comm::to_string(backend) << " seed " << seed;
      }
      if (kind != DesignKind::concom || backend == comm::Backend::mpi) {
        EXPECT_GT(finished, 0) << designs::to_string(kind) << " under " << comm::to_string(backend);
      }
    }
  }
}

TEST(PctRun, OneSeedIsOneSchedule) {
  const dag::Job job = pct_design_job(DesignKind::depcha);
  const std::uint64_t k = finished_run_transitions(job, 2);
  const auto trace_of = [&](std::uint64_t seed, std::uint32_t depth) {
    ControlledRun run(job, 2);
    EXPECT_EQ(run_pct(run, {depth, seed, k, 2 * k + 64}).end, RunEnd::finished);
    return run.trace();
  };
  EXPECT_EQ(trace_of(7, 3), trace_of(7, 3));
  bool differ = false;
  for (std::uint64_t seed = 8; seed < 16 && !differ; ++seed) {
    differ = trace_of(seed, 3) != trace_of(7, 3);
  }
  EXPECT_TRUE(differ) << "eight seeds gave one schedule";
}

}  // namespace
}  // namespace ordo::exec::testing
