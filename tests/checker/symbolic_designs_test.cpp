// The symbolic checker's known answers on the KVStore designs: funnel and depcha proven safe on
// the ResNet-50 step at every rank count (checked at 2 to 1024 ranks), naive and the unsafe
// concom configurations refuted with witnesses that replay on the runtime, the paper's Fig. 4
// init refuted and the runtime's own init proven. Timings are printed, never asserted.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>

#include "checker/search/explore.hpp"
#include "checker/symbolic/decide.hpp"
#include "runtime/networks/network.hpp"
#include "runtime/designs/step_builder.hpp"
#include "tests/checker/jobs.hpp"
#include "tests/checker/replay.hpp"

namespace ordo::checker::testing {
namespace {

using designs::DesignKind;
using symbolic::SymbolicResult;
using Outcome = symbolic::SymbolicResult::Outcome;

const dag::Job& resnet_job(DesignKind kind) {
  static const networks::Network network = networks::resnet50(1e5);
  static std::map<DesignKind, dag::Job> jobs;
  auto it = jobs.find(kind);
  if (it == jobs.end()) {
    it = jobs.emplace(kind, designs::build_step_job(network, config(kind, 2), {})).first;
  }
  return it->second;
}

SymbolicResult decide_and_print(const System& model, const std::string& what) {
  const SymbolicResult r = symbolic::decide(model, {});
  std::printf("  %-32s %5u ranks: %-9s in %.3f s (%u queries, %u guided runs)\n", what.c_str(),
              model.ranks(), std::string(symbolic::to_string(r.outcome)).c_str(), r.seconds,
              r.queries, r.guided_runs);
  return r;
}

// The witness, replayed transition by transition on the real engines over the simulated world, ends
// in the kind of violation the checker reports.
void expect_replays(const dag::Job& job, std::uint32_t ranks, const Result& result) {
  exec::ControlledRun run(job, ranks);
  const std::optional<exec::RunOutcome> end = replay(run, result.witness);
  ASSERT_TRUE(end) << "the run has not ended after the witness";
  switch (*result.property) {
    case Property::p1_order:
      ASSERT_EQ(end->end, exec::RunEnd::violation) << end->report;
      EXPECT_TRUE(std::holds_alternative<comm::Mismatch>(*run.violation())) << end->report;
      break;
    case Property::p2_thread_rule:
      ASSERT_EQ(end->end, exec::RunEnd::violation) << end->report;
      EXPECT_TRUE(std::holds_alternative<comm::ThreadRuleBreak>(*run.violation())) << end->report;
      break;
    case Property::p3_deadlock:
    case Property::p4_termination:
      EXPECT_EQ(end->end, exec::RunEnd::deadlock) << end->report;
      break;
    case Property::p5_buffers:
      ASSERT_EQ(end->end, exec::RunEnd::violation) << end->report;
      EXPECT_TRUE(std::holds_alternative<comm::BufferRace>(*run.violation())) << end->report;
      break;
  }
}

void expect_safe_everywhere(DesignKind kind) {
  for (std::uint32_t ranks : {2u, 8u, 64u, 256u, 1024u}) {
    const System model(resnet_job(kind), ranks);
    const SymbolicResult r =
        decide_and_print(model, "resnet50 " + std::string(designs::to_string(kind)));
    ASSERT_EQ(r.outcome, Outcome::safe) << symbolic::report(model, r);
    EXPECT_TRUE(r.every_rank_count) << symbolic::report(model, r);
    EXPECT_EQ(r.result.verdict, Verdict::safe);
    EXPECT_EQ(r.result.ranks, ranks);
    EXPECT_TRUE(r.result.witness.empty());
    EXPECT_GE(r.queries + r.graph_proofs, 2u);  // (a) per communicator and (b), at least
    EXPECT_EQ(r.guided_runs, 0u);
  }
}

TEST(SymbolicDesigns, FunnelIsSafeOnResNet50AtEveryRankCount) {
  expect_safe_everywhere(DesignKind::funnel);
}

TEST(SymbolicDesigns, DepchaIsSafeOnResNet50AtEveryRankCount) {
  expect_safe_everywhere(DesignKind::depcha);
}

TEST(SymbolicDesigns, FunnelFactsNameTheCommunicatorAndTheTheorems) {
  const System model(resnet_job(DesignKind::funnel), 8);
  const SymbolicResult r = symbolic::decide(model, {});
  ASSERT_EQ(r.outcome, Outcome::safe);
  const std::string text = symbolic::report(model, r);
  EXPECT_NE(text.find("comm 'world': 161 collectives issued in one order"), std::string::npos)
      << text;
  EXPECT_NE(text.find("(happens-before paths)"), std::string::npos) << text;
  EXPECT_NE(text.find("(docs/symbolic.md, Theorem 2)"), std::string::npos) << text;
  EXPECT_NE(text.find("safe at every rank count"), std::string::npos) << text;
}

TEST(SymbolicDesigns, NaiveOnResNet50BreaksTheThreadRuleWithAReplayableWitness) {
  const dag::Job& job = resnet_job(DesignKind::naive);
  const System model(job, 2);
  const SymbolicResult r = decide_and_print(model, "resnet50 naive");
  ASSERT_EQ(r.outcome, Outcome::unsafe) << symbolic::report(model, r);
  ASSERT_EQ(r.result.verdict, Verdict::unsafe);
  ASSERT_EQ(r.result.property, Property::p2_thread_rule);
  const auto& broken = std::get<comm::ThreadRuleBreak>(*r.result.violation);
  EXPECT_EQ(broken.comm_name, "world");
  EXPECT_EQ(broken.in_flight.issuer.rank, broken.second.issuer.rank);
  expect_replays(job, 2, r.result);
}

TEST(SymbolicDesigns, NaiveAtAThousandRanksIsRefutedWithAShortWitness) {
  const System model(resnet_job(DesignKind::naive), 1024);
  const SymbolicResult r = decide_and_print(model, "resnet50 naive");
  ASSERT_EQ(r.outcome, Outcome::unsafe) << symbolic::report(model, r);
  EXPECT_EQ(r.result.property, Property::p2_thread_rule);
  EXPECT_EQ(r.result.ranks, 1024u);
  // One rank runs ahead alone: the witness does not grow with the rank count.
  EXPECT_LT(r.result.witness.size(), 2000u);
}

TEST(SymbolicDesigns, NaiveWithOneCommThreadMismatchesAcrossRanks) {
  const dag::Job job = step_job(branches(), config(DesignKind::naive, 1));
  for (std::uint32_t ranks : {2u, 64u}) {
    const System model(job, ranks);
    const SymbolicResult r = decide_and_print(model, "branches naive, 1 comm thread");
    ASSERT_EQ(r.outcome, Outcome::unsafe) << symbolic::report(model, r);
    ASSERT_EQ(r.result.property, Property::p1_order);
    const auto& m = std::get<comm::Mismatch>(*r.result.violation);
    EXPECT_EQ(m.comm_name, "world");
    ASSERT_GE(m.calls.size(), 2u);
    EXPECT_NE(m.calls.front().call.key, m.calls.back().call.key);
    if (ranks == 2) expect_replays(job, ranks, r.result);
  }
}

designs::DesignConfig concom(std::uint32_t ncomm, std::uint32_t outstanding,
                             std::uint32_t comm_threads) {
  designs::DesignConfig c = config(DesignKind::concom, comm_threads);
  c.ncomm = ncomm;
  c.outstanding = outstanding;
  return c;
}

TEST(SymbolicDesigns, ConcomWithACommunicatorPerOutstandingKeyIsSafe) {
  const dag::Job small = step_job(networks::mlp(2, 4, 1.0), concom(2, 2, 2));
  const System model(small, 3);
  const SymbolicResult r = decide_and_print(model, "mlp concom(2, 2, 2 threads)");
  ASSERT_EQ(r.outcome, Outcome::safe) << symbolic::report(model, r);
  EXPECT_TRUE(r.every_rank_count);
  for (std::uint32_t ranks : {2u, 1024u}) {
    const System big(resnet_job(DesignKind::concom), ranks);
    const SymbolicResult rb = decide_and_print(big, "resnet50 concom(2, 2, 2 threads)");
    EXPECT_EQ(rb.outcome, Outcome::safe) << symbolic::report(big, rb);
  }
}

TEST(SymbolicDesigns, ConcomWithOneCommunicatorForTwoOutstandingBreaksTheThreadRule) {
  const dag::Job job = step_job(networks::mlp(1, 2, 1.0), concom(1, 2, 2));
  const System model(job, 2);
  const SymbolicResult r = decide_and_print(model, "mlp concom(1, 2, 2 threads)");
  ASSERT_EQ(r.outcome, Outcome::unsafe) << symbolic::report(model, r);
  ASSERT_EQ(r.result.property, Property::p2_thread_rule);
  expect_replays(job, 2, r.result);
}

// Two allreduces on two communicators, each after its own compute op, and one comm thread: a
// rank whose first compute op finishes first takes the thread for the first allreduce, another
// rank for the second, and each waits for the other. SPMD, so meaningful at any rank count.
dag::Job two_comms_one_thread() {
  dag::Job job;
  job.comms = {{"c0", std::nullopt}, {"c1", std::nullopt}};
  dag::Program p;
  p.name = "step";
  p.pools = {{"compute", 2, dag::PoolKind::fifo}, {"comm", 1, dag::PoolKind::fifo}};
  p.vars = {{"g0", dag::VarKind::tensor, 16, dag::DType::f32},
            {"g1", dag::VarKind::tensor, 16, dag::DType::f32}};
  for (dag::VarId k = 0; k < 2; ++k) {
    dag::Op produce;
    produce.name = "produce" + std::to_string(k);
    produce.writes = {k};
    p.ops.push_back(produce);
  }
  for (dag::VarId k = 0; k < 2; ++k) {
    dag::Op ar;
    ar.name = "allreduce" + std::to_string(k);
    ar.kind = dag::OpKind::collective;
    ar.pool = 1;
    ar.writes = {k};
    ar.collective = dag::Collective{dag::CollectiveKind::allreduce,
                                    k,
                                    k,
                                    4,
                                    dag::DType::f32,
                                    dag::Reduction::sum,
                                    std::nullopt};
    p.ops.push_back(ar);
  }
  for (dag::OpId o = 0; o < 4; ++o) p.main.emplace_back(dag::SubmitAction{o});
  p.main.emplace_back(dag::WaitForAllAction{});
  job.programs = {p};
  return job;
}

TEST(SymbolicDesigns, OneCommThreadForTwoCommunicatorsDeadlocksAtEveryRankCountChecked) {
  const dag::Job job = two_comms_one_thread();
  for (std::uint32_t ranks : {2u, 3u, 1024u}) {
    const System model(job, ranks);
    const SymbolicResult r = decide_and_print(model, "two comms, one comm thread");
    ASSERT_EQ(r.outcome, Outcome::unsafe) << symbolic::report(model, r);
    ASSERT_EQ(r.result.property, Property::p3_deadlock);
    const auto& d = std::get<comm::Deadlock>(*r.result.violation);
    EXPECT_EQ(d.ranks_blocked.size(), ranks);
    if (ranks <= 3) expect_replays(job, ranks, r.result);
  }
}

TEST(SymbolicDesigns, ATwoRankStuckCutLiftsToAThousandRanks) {
  const System model(two_comms_one_thread(), 1024);
  // Too small a budget for the query at 1024 ranks, enough for two.
  const SymbolicResult r = symbolic::decide(model, {.deadlock_events_max = 100});
  ASSERT_EQ(r.outcome, Outcome::unsafe) << symbolic::report(model, r);
  ASSERT_EQ(r.result.property, Property::p3_deadlock);
  EXPECT_EQ(std::get<comm::Deadlock>(*r.result.violation).ranks_blocked.size(), 1024u);
  const std::string text = symbolic::report(model, r);
  EXPECT_NE(text.find("a stuck cut at 2 ranks"), std::string::npos) << text;
}

// One FIFO comm thread issues the allreduces in submit order on every rank: an order the
// happens-before graph now holds (docs/symbolic.md, Lemma 4), so the symbolic stage proves both
// concom configurations with one comm thread safe at every rank count, and explicit search, which
// knows nothing of Lemma 4, agrees.
TEST(SymbolicDesigns, ConcomWithOneCommThreadForTwoCommunicatorsIsProvenByTheFifoRule) {
  const dag::Job job = step_job(networks::mlp(1, 2, 1.0), concom(2, 2, 1));
  const System model(job, 2);
  const SymbolicResult r = decide_and_print(model, "mlp concom(2, 2, 1 thread)");
  EXPECT_EQ(r.outcome, Outcome::safe) << symbolic::report(model, r);
  EXPECT_TRUE(r.every_rank_count);
  const Result explicit_result = explore(model, {2'000'000, 120.0});
  EXPECT_EQ(explicit_result.verdict, Verdict::safe) << report(model, explicit_result);
}

TEST(SymbolicDesigns, ConcomWhoseOrderOnlyTheFifoPoolKeepsIsProvenByTheFifoRule) {
  const dag::Job job = step_job(networks::mlp(1, 2, 1.0), concom(1, 2, 1));
  const System model(job, 2);
  const SymbolicResult r = decide_and_print(model, "mlp concom(1, 2, 1 thread)");
  EXPECT_EQ(r.outcome, Outcome::safe) << symbolic::report(model, r);
  const Result explicit_result = explore(model, {2'000'000, 120.0});
  EXPECT_EQ(explicit_result.verdict, Verdict::safe) << report(model, explicit_result);
}

// With two comm threads the same window is not ordered (S3: either worker may issue first), so
// the rule must not apply: the configuration is unsafe and the witness replays.
TEST(SymbolicDesigns, TheFifoRuleDoesNotOrderTwoThreads) {
  const dag::Job job = step_job(networks::mlp(1, 2, 1.0), concom(1, 2, 2));
  const System model(job, 2);
  const Result explicit_result = explore(model, {2'000'000, 120.0});
  ASSERT_EQ(explicit_result.verdict, Verdict::unsafe) << report(model, explicit_result);
  const SymbolicResult r = decide_and_print(model, "mlp concom(1, 2, 2 threads)");
  EXPECT_NE(r.outcome, Outcome::safe) << symbolic::report(model, r);
}

dag::Job with_init(designs::InitKind init, std::uint32_t comm_threads) {
  designs::DesignConfig c = config(DesignKind::depcha, comm_threads);
  c.init = init;
  return designs::build_step_job(networks::mlp(2, 4, 1.0), c, {.include_init = true});
}

TEST(SymbolicDesigns, TheFig4InitWithTwoCommThreadsIsUnsafe) {
  const dag::Job job = with_init(designs::InitKind::fig4, 2);
  const System model(job, 2);
  const SymbolicResult r = decide_and_print(model, "mlp depcha, init fig4");
  ASSERT_EQ(r.outcome, Outcome::unsafe) << symbolic::report(model, r);
  ASSERT_TRUE(r.result.property == Property::p1_order ||
              r.result.property == Property::p2_thread_rule);
  expect_replays(job, 2, r.result);
  const System big(job, 256);
  EXPECT_EQ(decide_and_print(big, "mlp depcha, init fig4").outcome, Outcome::unsafe);
}

TEST(SymbolicDesigns, TheRuntimesInitIsSafe) {
  for (std::uint32_t threads : {1u, 2u}) {
    const System model(with_init(designs::InitKind::safe, threads), 64);
    const SymbolicResult r = decide_and_print(model, "mlp depcha, safe init");
    EXPECT_EQ(r.outcome, Outcome::safe) << symbolic::report(model, r);
    EXPECT_TRUE(r.every_rank_count);
  }
}

TEST(SymbolicDesigns, ATimeLimitOfZeroIsUndecidedNotAnswered) {
  const System model(resnet_job(DesignKind::depcha), 8);
  const SymbolicResult r = symbolic::decide(model, {.seconds_max = 0.0});
  EXPECT_EQ(r.outcome, Outcome::undecided);
  EXPECT_EQ(r.result.verdict, Verdict::unknown);
  EXPECT_EQ(r.result.bound, Bound::seconds_max);
}

}  // namespace
}  // namespace ordo::checker::testing
