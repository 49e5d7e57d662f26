// `ordo analyze`'s findings on hand-built dumps: each fault the issue names, found and named in
// the checker's terms, and dumps that cannot be of one job refused.
#include "runtime/diag/analysis.hpp"

#include <gtest/gtest.h>

#include "tests/diag/dumps.hpp"

namespace ordo::diag {
namespace {

using testing::add_call;
using testing::allreduce;
using testing::empty_dump;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Rank 1 skipped key 2; its key 3 met rank 0's key 2, and then rank 0 waits in key 3 while rank 1
// waits in the main thread's barrier.
std::vector<RankDump> skipped_call() {
  RankDump r0 = empty_dump(0, 2, {"main", "grads"});
  RankDump r1 = empty_dump(1, 2, {"main", "grads"});
  for (int k = 0; k < 4; ++k) add_call(r0, 1, allreduce(k), k == 3, "ar." + std::to_string(k));
  for (int k : {0, 1, 3}) add_call(r1, 1, allreduce(k), false, "ar." + std::to_string(k));
  add_call(r1, 0, testing::barrier(), true, "main", "");
  return {r0, r1};
}

TEST(Analysis, NamesTheRankThatSkippedACallAndTheCall) {
  const Analysis a = analyze(skipped_call());
  EXPECT_EQ(a.finding, Finding::fault);
  ASSERT_EQ(a.divergences.size(), 1u);
  EXPECT_EQ(a.divergences[0].comm_name, "grads");
  EXPECT_EQ(a.divergences[0].seq, 2u);
  EXPECT_TRUE(
      contains(a.headline, "rank 1 did not issue allreduce of 4 x f32 (sum) on 'grads', key 2"))
      << a.headline;
  // Rank 0 waits in grads seq 3 that rank 1 never issued, rank 1 in main seq 0 that rank 0 never
  // issued: a cycle across the two communicators, after the divergence that caused it.
  ASSERT_EQ(a.cycle.size(), 2u);
  EXPECT_NE(a.cycle[0].comm_name, a.cycle[1].comm_name);
  const std::string text = human_report(a);
  EXPECT_TRUE(contains(text, "wait cycle across communicators: 0 -> 1 -> 0")) << text;
}

TEST(Analysis, TheSkippingRankIsNamedWhicheverRankItIs) {
  RankDump r0 = empty_dump(0, 3);
  RankDump r1 = empty_dump(1, 3);
  RankDump r2 = empty_dump(2, 3);
  for (int k : {0, 1, 2}) add_call(r0, 0, allreduce(k), k == 2);
  for (int k : {0, 2}) add_call(r1, 0, allreduce(k));
  for (int k : {0, 1, 2}) add_call(r2, 0, allreduce(k), k == 2);
  const Analysis a = analyze({r0, r1, r2});
  ASSERT_EQ(a.divergences.size(), 1u);
  EXPECT_TRUE(contains(a.divergences[0].explanation, "rank 1 did not issue")) << a.headline;
  EXPECT_TRUE(contains(a.divergences[0].explanation, "key 1"));
}

TEST(Analysis, AMissingRankIsNamedAsMissing) {
  RankDump r0 = empty_dump(0, 3);
  RankDump r2 = empty_dump(2, 3);
  add_call(r0, 0, allreduce(0), true);
  add_call(r2, 0, allreduce(0), true);
  const Analysis a = analyze({r0, r2});
  EXPECT_EQ(a.finding, Finding::fault);
  EXPECT_EQ(a.missing, std::vector<dag::Rank>{1});
  EXPECT_TRUE(contains(a.headline, "rank(s) 1 left no dump")) << a.headline;
  ASSERT_EQ(a.not_issued.size(), 1u);
  EXPECT_EQ(a.not_issued[0].missing, std::vector<dag::Rank>{1});
  EXPECT_TRUE(a.cycle.empty());
}

TEST(Analysis, ARankThatNeverIssuedTheCallIsNamed) {
  RankDump r0 = empty_dump(0, 2);
  RankDump r1 = empty_dump(1, 2);
  add_call(r0, 0, allreduce(0));
  add_call(r0, 0, allreduce(1), true, "ar.1");
  add_call(r1, 0, allreduce(0));
  const Analysis a = analyze({r0, r1});
  ASSERT_EQ(a.not_issued.size(), 1u);
  EXPECT_EQ(a.not_issued[0].never, std::vector<dag::Rank>{1});
  EXPECT_TRUE(contains(a.headline, "rank(s) 1 never issued allreduce")) << a.headline;
}

TEST(Analysis, FindsPoolExhaustion) {
  RankDump r0 = empty_dump(0, 2);
  RankDump r1 = empty_dump(1, 2);
  add_call(r0, 0, allreduce(1), true, "ar.1");
  add_call(r1, 0, allreduce(1), true, "ar.1");
  engine::EngineSnapshot e;
  e.pools.push_back({"comm", {std::string("ar.1")}, 1, {"ar.0"}});
  r1.engine = e;
  const Analysis a = analyze({r0, r1});
  ASSERT_EQ(a.exhausted.size(), 1u);
  EXPECT_EQ(a.exhausted[0].rank, 1u);
  EXPECT_EQ(a.exhausted[0].holding, std::vector<std::string>{"ar.1"});
  EXPECT_EQ(a.finding, Finding::fault);
  EXPECT_TRUE(contains(a.headline, "pool exhaustion")) << a.headline;
}

TEST(Analysis, StuckWithEveryCallIssuedIsInconclusive) {
  RankDump r0 = empty_dump(0, 2);
  RankDump r1 = empty_dump(1, 2);
  add_call(r0, 0, allreduce(1), true);
  add_call(r1, 0, allreduce(1), true);
  EXPECT_EQ(analyze({r0, r1}).finding, Finding::inconclusive);
}

TEST(Analysis, MatchedAndEndedIsNoFault) {
  RankDump r0 = empty_dump(0, 2);
  RankDump r1 = empty_dump(1, 2);
  add_call(r0, 0, allreduce(1));
  add_call(r1, 0, allreduce(1));
  const Analysis a = analyze({r0, r1});
  EXPECT_EQ(a.finding, Finding::no_fault);
  EXPECT_TRUE(contains(json_report(a), "\"finding\": \"no_fault\""));
}

TEST(Analysis, SaysWhichOpOfTheProgramEachRankWasIn) {
  dag::Job job;
  dag::Program p;
  p.name = "step";
  for (const char* name : {"fwd", "ar.3"}) {
    dag::Op op;
    op.name = name;
    p.ops.push_back(op);
  }
  job.programs.push_back(p);
  RankDump r0 = empty_dump(0, 2);
  add_call(r0, 0, allreduce(3), true, "ar.3");
  RankDump r1 = empty_dump(1, 2);
  add_call(r1, 0, allreduce(3), true, "s17.ar.3");  // a training run's step 17
  const Analysis a = analyze({r0, r1}, &job);
  ASSERT_EQ(a.ranks[0].program_ops.size(), 1u);
  EXPECT_EQ(a.ranks[0].program_ops[0], "op 1 of 2 of program 'step' ('ar.3')");
  ASSERT_EQ(a.ranks[1].program_ops.size(), 1u);
  EXPECT_EQ(a.ranks[1].program_ops[0], "op 1 of 2 of program 'step' ('ar.3'), at step 17");
}

TEST(Analysis, TheGraphAndTheJsonNameTheCycle) {
  const Analysis a = analyze(skipped_call());
  const std::string dot = dot_report(a);
  EXPECT_TRUE(contains(dot, "r0 -> r1")) << dot;
  EXPECT_TRUE(contains(dot, "r1 -> r0")) << dot;
  EXPECT_TRUE(contains(dot, "penwidth=3"));
  EXPECT_TRUE(contains(json_report(a), "\"cycle\": ["));
}

TEST(Analysis, ARankThatFailedAloneLeads) {
  std::vector<RankDump> dumps = skipped_call();
  dumps[1].reason = "error";
  dumps[1].detail = "train.rec: record 12: not a JPEG";
  const Analysis a = analyze(dumps);
  EXPECT_EQ(a.finding, Finding::fault);
  EXPECT_EQ(a.headline, "rank 1 failed: train.rec: record 12: not a JPEG");
}

TEST(Analysis, RefusesDumpsOfDifferentJobs) {
  EXPECT_THROW(analyze({}), AnalysisInputError);
  EXPECT_THROW(analyze({empty_dump(0, 2), empty_dump(0, 2)}), AnalysisInputError);
  EXPECT_THROW(analyze({empty_dump(0, 2), empty_dump(1, 3)}), AnalysisInputError);
  RankDump other = empty_dump(1, 2, {"other"});
  EXPECT_THROW(analyze({empty_dump(0, 2), other}), AnalysisInputError);
}

}  // namespace
}  // namespace ordo::diag
