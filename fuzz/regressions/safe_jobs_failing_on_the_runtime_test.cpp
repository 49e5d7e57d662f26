// Jobs that once validated, were proven safe by the checker, and failed on the runtime: the
// runtime's op bodies and the simulated world required more of a job than dag::validate did, and
// the checker explores only executions in which every op succeeds. The contract these tests
// hold: a job that validates and is proven safe finishes on every schedule. The fix was in the
// validator, which now rejects these shapes with a message naming the op or action; each test
// requires that rejection, and, should a shape ever validate again, that it runs to the end.
#include <gtest/gtest.h>

#include "checker/search/explore.hpp"
#include "runtime/dag/validate.hpp"
#include "runtime/exec/controlled_run.hpp"

namespace ordo::fuzz {
namespace {

// Two ranks on the world, one single-thread pool; vars a and b of 16 bytes, c of 4.
dag::Job two_ranks() {
  dag::Job job;
  job.ranks = 2;
  job.comms = {{"world", std::nullopt}};
  dag::Program& p = job.programs.emplace_back();
  p.name = "step";
  p.pools = {{"pool", 1, dag::PoolKind::fifo}};
  p.vars = {{"a", dag::VarKind::tensor, 16, dag::DType::f32},
            {"b", dag::VarKind::tensor, 16, dag::DType::f32},
            {"c", dag::VarKind::tensor, 4, dag::DType::f32}};
  return job;
}

dag::Collective allreduce_of_four() {
  return {
      dag::CollectiveKind::allreduce, 0, 0, 4, dag::DType::f32, dag::Reduction::sum, std::nullopt};
}

void expect_valid_safe_jobs_finish(const dag::Job& job, const std::string& rejection) {
  const std::vector<dag::Diagnostic> found = dag::validate(job);
  bool named = false;
  for (const dag::Diagnostic& d : found) {
    if (d.message.find(rejection) != std::string::npos) named = true;
  }
  EXPECT_TRUE(named) << "the validator no longer says '" << rejection << "'";
  if (!found.empty()) return;
  const checker::System model(job, 2);
  const checker::Result result = checker::explore(model, {100'000, 30.0});
  ASSERT_EQ(result.verdict, checker::Verdict::safe) << checker::report(model, result);
  exec::ControlledRun run(job, 2);
  const exec::RunOutcome end = exec::run_random_schedule(run, 1, 1000);
  EXPECT_EQ(end.end, exec::RunEnd::finished) << end.report;
}

// run_copy once required exactly one read var and one written var. It packs several now, and the
// validator holds the parts to the whole: 32 bytes do not pack into c's 4.
TEST(SafeJobsFailingOnTheRuntime, CopyReadingTwoVars) {
  dag::Job job = two_ranks();
  dag::Program& p = job.programs[0];
  dag::Op copy;
  copy.name = "copy";
  copy.kind = dag::OpKind::copy;
  copy.reads = {0, 1};
  copy.writes = {2};
  p.ops.push_back(copy);
  p.main = {dag::SubmitAction{0}, dag::WaitToReadAction{2}};
  expect_valid_safe_jobs_finish(job, "pack op 'copy' moves 32 bytes of parts but var 'c' holds 4");
}

// The simulated world rejects a call with a count and no buffer; so does the validator now.
TEST(SafeJobsFailingOnTheRuntime, MainAllreduceWithoutBuffer) {
  dag::Job job = two_ranks();
  job.programs[0].main = {dag::CollectiveAction{allreduce_of_four(), std::nullopt}};
  expect_valid_safe_jobs_finish(job, "has no buffer");
}

// The validator checks an op's buffer only when the op writes one var; the runtime fills the
// first data var written, here c, 4 bytes for 16.
TEST(SafeJobsFailingOnTheRuntime, CollectiveOpWritingTwoVarsFirstTooSmall) {
  dag::Job job = two_ranks();
  dag::Program& p = job.programs[0];
  dag::Op ar;
  ar.name = "allreduce";
  ar.kind = dag::OpKind::collective;
  ar.writes = {2, 0};
  ar.collective = allreduce_of_four();
  p.ops.push_back(ar);
  p.main = {dag::SubmitAction{0}, dag::WaitForAllAction{}};
  expect_valid_safe_jobs_finish(job, "needs 16 bytes but var 'c' has 4 bytes");
}

}  // namespace
}  // namespace ordo::fuzz
