// Rules of validate() for the main thread: submissions, waits and main-thread collectives.
#include <gtest/gtest.h>

#include <algorithm>

#include "runtime/dag/validate.hpp"
#include "tests/dag/sample_jobs.hpp"
#include "tests/dag/test_support.hpp"

namespace ordo::dag {
namespace {

using testing::expect_one_diagnostic;

Job validate_main_job() { return testing::small_valid_job(); }

std::vector<Action>& main_of(Job& job) { return job.programs[0].main; }

CollectiveAction allreduce_call(std::uint64_t count, std::optional<VarId> buffer) {
  return CollectiveAction{Collective{.kind = CollectiveKind::allreduce,
                                     .comm = 0,
                                     .key = 5,
                                     .count = count,
                                     .reduction = Reduction::sum},
                          buffer};
}

TEST(DagValidateMain, OpNeverSubmitted) {
  Job job = validate_main_job();
  main_of(job).erase(main_of(job).begin());
  expect_one_diagnostic(job, "/programs/0/ops/0",
                        "op 'bwd0' is never submitted by the main program; expected a submit "
                        "action for every op");
}

TEST(DagValidateMain, OpSubmittedTwice) {
  Job job = validate_main_job();
  main_of(job).push_back(SubmitAction{0});
  expect_one_diagnostic(job, "/programs/0/main/6/op",
                        "op 'bwd0' is submitted twice (first at /programs/0/main/0)");
}

TEST(DagValidateMain, SubmitOfAnOpOutOfRange) {
  Job job = validate_main_job();
  main_of(job).push_back(SubmitAction{7});
  expect_one_diagnostic(job, "/programs/0/main/6/op", "op index 7 is out of range");
}

TEST(DagValidateMain, WaitBeforeTheWriterIsSubmitted) {
  Job job = validate_main_job();
  std::vector<Action>& main = main_of(job);
  main.erase(main.begin() + 2);
  // Rotating the new wait to the front, rather than inserting it there: g++ 12 at -O3 reports a
  // false -Wnull-dereference inside vector::insert for this variant type.
  main.emplace_back(WaitToReadAction{1});
  std::rotate(main.begin(), main.end() - 1, main.end());
  expect_one_diagnostic(job, "/programs/0/main/0/var",
                        "no op submitted before this wait writes var 'buf0'");
}

TEST(DagValidateMain, WaitOnAVarNoOpWrites) {
  Job job = validate_main_job();
  main_of(job).push_back(WaitToReadAction{2});
  expect_one_diagnostic(job, "/programs/0/main/6/var",
                        "no op submitted before this wait writes var 'tok'");
}

TEST(DagValidateMain, WaitOnAVarOutOfRange) {
  Job job = validate_main_job();
  main_of(job).push_back(WaitToReadAction{3});
  expect_one_diagnostic(job, "/programs/0/main/6/var", "var index 3 is out of range");
}

TEST(DagValidateMain, CollectiveCallBufferOutOfRange) {
  Job job = validate_main_job();
  main_of(job).push_back(allreduce_call(1, VarId{9}));
  expect_one_diagnostic(job, "/programs/0/main/6/buffer", "var index 9 is out of range");
}

TEST(DagValidateMain, BarrierWithABuffer) {
  Job job = validate_main_job();
  std::get<CollectiveAction>(main_of(job)[4]).buffer = 1;
  expect_one_diagnostic(job, "/programs/0/main/4/buffer", "barrier has a buffer");
}

TEST(DagValidateMain, CollectiveCallBufferTooSmall) {
  Job job = validate_main_job();
  main_of(job).push_back(allreduce_call(1024, VarId{1}));
  EXPECT_TRUE(validate(job).empty()) << testing::describe(validate(job));
  main_of(job).back() = allreduce_call(2048, VarId{1});
  expect_one_diagnostic(job, "/programs/0/main/6/collective/count",
                        "allreduce of 2048 f32 elements needs 8192 bytes but var 'buf0' has "
                        "4096 bytes");
}

// The runtime has nothing to reduce without a buffer, so the call is rejected, not run.
TEST(DagValidateMain, CollectiveCallMovingDataNeedsABuffer) {
  Job job = validate_main_job();
  main_of(job).push_back(allreduce_call(1u << 30, std::nullopt));
  expect_one_diagnostic(job, "/programs/0/main/6",
                        "the main thread's allreduce moves 1073741824 elements but has no buffer");
  main_of(job).back() = allreduce_call(0, std::nullopt);
  EXPECT_TRUE(validate(job).empty()) << testing::describe(validate(job));
}

}  // namespace
}  // namespace ordo::dag
