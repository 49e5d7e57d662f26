// The designs under controlled schedules on simulated ranks: the exact schedules that break naive
// and an unsafe concom configuration, reproduced transition by transition, and random schedules of
// the safe designs that all end with exact sums.
#include <gtest/gtest.h>

#include <span>

#include "runtime/designs/step_builder.hpp"
#include "runtime/kvstore/step_run.hpp"
#include "tests/checker/jobs.hpp"
#include "tests/exec/schedules.hpp"

namespace ordo::exec::testing {
namespace {

using designs::DesignConfig;
using designs::DesignKind;

// Two independent layers reading the input and a join: their backward ops run concurrently on a
// two-thread compute pool, so which gradient is ready first depends on the schedule.
networks::Network branches() {
  using networks::Layer;
  return {"branches",
          {Layer{"a", {{"a.w", 4, dag::DType::f32}}, 1.0, 1.0, {}},
           Layer{"b", {{"b.w", 4, dag::DType::f32}}, 1.0, 1.0, {}},
           Layer{"join", {}, 1.0, 1.0, {0, 1}}}};
}

DesignConfig config(DesignKind kind, std::uint32_t comm_threads) {
  DesignConfig c;
  c.kind = kind;
  c.comm_threads = comm_threads;
  return c;
}

dag::Job job_of(const networks::Network& net, const DesignConfig& c) {
  return designs::build_step_job(net, c, {});
}

bool is_grad(const dag::Var& v) { return v.name.rfind("grad.", 0) == 0; }

// Backward writes known gradients (the var id stands for the key), so a finished run can be
// checked against the exact sum over ranks.
BodyOptions gradient_fill() {
  BodyOptions body;
  body.compute = [](dag::Rank rank, const dag::Op& op, Buffers& buffers) {
    if (op.name.rfind("bwd.", 0) != 0) return;
    for (dag::VarId w : op.writes) {
      if (!is_grad(buffers.var(w))) continue;
      std::span<float> g = buffers.as<float>(w);
      for (std::uint64_t i = 0; i < g.size(); ++i) g[i] = kvstore::gradient_value(rank, w, i, 0);
    }
  };
  return body;
}

// Buckets of one key each (as many allreduces as depcha, each behind a pack and before an
// unpack) or one bucket for both keys.
DesignConfig fused_config(std::uint64_t bucket_bytes) {
  DesignConfig c = config(DesignKind::fused, 2);
  c.bucket_bytes = bucket_bytes;
  return c;
}

TEST(ControlledDesigns, NaiveIssuesAllreducesInScheduleOrderAndMismatches) {
  const dag::Job job = job_of(branches(), config(DesignKind::naive, 1));
  auto script = [&job] {
    auto run = std::make_unique<ControlledRun>(job, 2);
    run_while(*run, [](const ControlledRun& r, const dag::Transition& s) {
      return hold_completion_of("bwd.a")(r, s) || hold_completion_of("bwd.b")(r, s);
    });
    // Both backward ops are running on both ranks; they finish in opposite orders.
    run->take({dag::Transition::Kind::complete, 0, op_id(*run, 0, "bwd.b"), std::nullopt});
    run->take({dag::Transition::Kind::complete, 0, op_id(*run, 0, "bwd.a"), std::nullopt});
    run->take({dag::Transition::Kind::complete, 1, op_id(*run, 1, "bwd.a"), std::nullopt});
    run->take({dag::Transition::Kind::complete, 1, op_id(*run, 1, "bwd.b"), std::nullopt});
    run_while(*run);
    return run;
  };
  const auto run = script();
  const std::optional<RunOutcome> end = run->outcome();
  ASSERT_TRUE(end);
  EXPECT_EQ(end->end, RunEnd::violation);
  const std::optional<comm::Violation> violation = run->violation();
  ASSERT_TRUE(violation);
  const auto& mismatch = std::get<comm::Mismatch>(*violation);
  EXPECT_EQ(mismatch.comm_name, "world");
  EXPECT_EQ(mismatch.seq, 0u);
  ASSERT_EQ(mismatch.calls.size(), 2u);
  EXPECT_EQ(mismatch.calls[0].issuer.rank, 0u);
  EXPECT_EQ(mismatch.calls[0].issuer.name, "allreduce.b.w");
  EXPECT_EQ(mismatch.calls[1].issuer.rank, 1u);
  EXPECT_EQ(mismatch.calls[1].issuer.name, "allreduce.a.w");
  // Deterministic: the same script gives the same transitions and the same report.
  const auto again = script();
  EXPECT_EQ(again->trace(), run->trace());
  EXPECT_EQ(again->outcome()->report, end->report);
}

TEST(ControlledDesigns, ConcomWithFewerCommunicatorsThanOutstandingBreaksTheThreadRule) {
  DesignConfig c = config(DesignKind::concom, 2);
  c.ncomm = 1;
  c.outstanding = 2;
  ControlledRun run(job_of(networks::mlp(1, 2, 1.0), c), 2);
  run_while(run);  // rank 0's transitions come first: it runs ahead of rank 1
  const std::optional<RunOutcome> end = run.outcome();
  ASSERT_TRUE(end);
  ASSERT_EQ(end->end, RunEnd::violation) << end->report;
  const std::optional<comm::Violation> violation = run.violation();
  ASSERT_TRUE(violation);
  const auto& broken = std::get<comm::ThreadRuleBreak>(*violation);
  EXPECT_EQ(broken.comm_name, "comm0");
  EXPECT_EQ(broken.in_flight.issuer.name, "allreduce.dense0.weight");
  EXPECT_EQ(broken.second.issuer.name, "allreduce.dense0.bias");
}

TEST(ControlledDesigns, HeterogeneousProgramsDeadlockWithEveryWaitNamed) {
  // Rank 0 submits two allreduce ops on the world, rank 1 one, then each waits for all.
  const dag::Job job = checker::testing::allreduce_counts(2, 1);
  ControlledRun run(job, 2);
  run_while(run);
  const std::optional<RunOutcome> end = run.outcome();
  ASSERT_TRUE(end);
  ASSERT_EQ(end->end, RunEnd::deadlock) << end->report;
  EXPECT_NE(end->report.find("rank 0 main action 2: wait for all (1 ops incomplete)"),
            std::string::npos)
      << end->report;
  EXPECT_NE(end->report.find("rank 0 op 'ar1' on pool 'comm' thread 0: in allreduce"),
            std::string::npos)
      << end->report;
  EXPECT_NE(end->report.find("waiting for rank(s) 1"), std::string::npos);
  // Rank 1 finished: it is not among the blocked.
  const std::optional<comm::Deadlock> d = run.deadlock();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->ranks_blocked, std::vector<dag::Rank>{0});
}

class SafeDesigns : public ::testing::TestWithParam<DesignConfig> {};

TEST_P(SafeDesigns, RandomSchedulesFinishWithExactSums) {
  const dag::Job job = job_of(branches(), GetParam());
  for (std::uint32_t ranks : {2u, 3u}) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      ControlledRun run(job, ranks, gradient_fill());
      const RunOutcome end = run_random_schedule(run, seed, 100000);
      ASSERT_EQ(end.end, RunEnd::finished) << "seed " << seed << ": " << end.report;
      for (dag::Rank r = 0; r < ranks; ++r) {
        Buffers& b = run.buffers(r);
        for (dag::VarId v = 0; v < b.size(); ++v) {
          if (!is_grad(b.var(v))) continue;
          const std::span<float> g = b.as<float>(v);
          for (std::uint64_t i = 0; i < g.size(); ++i) {
            float sum = 0.0f;
            for (dag::Rank q = 0; q < ranks; ++q) sum += kvstore::gradient_value(q, v, i, 0);
            ASSERT_EQ(g[i], sum) << "rank " << r << " " << b.var(v).name << "[" << i << "]";
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Designs, SafeDesigns,
                         ::testing::Values(config(DesignKind::funnel, 2),
                                           config(DesignKind::depcha, 2),
                                           config(DesignKind::concom, 2), fused_config(1),
                                           fused_config(1 << 20),
                                           config(DesignKind::nonblocking, 2)));

}  // namespace
}  // namespace ordo::exec::testing
