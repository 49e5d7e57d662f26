// verify() on the known answers: every unsafe answer carries a witness that replays on
// the runtime with the same kind of violation, the shortened witness is still a real schedule,
// and the reports (words, JSON, Graphviz) say what the result says.
#include "checker/verify/verify.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "checker/witness/dot.hpp"
#include "runtime/designs/step_builder.hpp"
#include "tests/checker/jobs.hpp"
#include "tests/checker/replay.hpp"

namespace ordo::checker::testing {
namespace {

using designs::DesignKind;

Verification run(const dag::Job& job, std::uint32_t ranks) {
  const System model(job, ranks);
  VerifyOptions options;
  options.limits = {3'000'000, 120.0};
  // The witness's shortening and its critical transition are asserted on: on a loaded machine
  // under a sanitizer, a second (a twentieth of it per probe) may not be enough for them.
  options.witness_seconds = 60.0;
  return verify(model, options);
}

void expect_replays(const dag::Job& job, std::uint32_t ranks, const Verification& v) {
  ASSERT_EQ(v.result.verdict, Verdict::unsafe);
  exec::ControlledRun run_(job, ranks);
  const std::optional<exec::RunOutcome> end = replay(run_, v.result.witness);
  ASSERT_TRUE(end) << "the witness does not end the run";
  if (*v.result.property == Property::p1_order || *v.result.property == Property::p2_thread_rule) {
    EXPECT_EQ(end->end, exec::RunEnd::violation) << end->report;
  } else {
    EXPECT_EQ(end->end, exec::RunEnd::deadlock) << end->report;
  }
}

dag::Job design(DesignKind kind, std::uint32_t threads, std::uint32_t ncomm = 2,
                std::uint32_t outstanding = 2) {
  designs::DesignConfig c = config(kind, threads);
  c.ncomm = ncomm;
  c.outstanding = outstanding;
  return step_job(networks::mlp(2, 4, 1.0), c);
}

TEST(Verify, NaiveWithTwoCommThreadsIsUnsafeWithAShortReplayableWitness) {
  const dag::Job job = design(DesignKind::naive, 2);
  const Verification v = run(job, 2);
  expect_replays(job, 2, v);
  ASSERT_TRUE(v.critical_transition);
  EXPECT_LE(*v.critical_transition, v.result.witness.size());
  // The search found it after both ranks' forward passes; rank 1 has no part in a thread-rule
  // break of rank 0, and the shortened witness drops it.
  EXPECT_LT(v.result.witness.size(), v.result.stats.depth_max + 1);
}

TEST(Verify, FunnelAndDepchaAreSafe) {
  for (DesignKind kind : {DesignKind::funnel, DesignKind::depcha}) {
    const Verification v = run(design(kind, 2), 2);
    EXPECT_EQ(v.result.verdict, Verdict::safe) << to_string(v.decided_by);
  }
}

TEST(Verify, ConcomIsSafeWithOneCommunicatorPerOutstandingKey) {
  EXPECT_EQ(run(design(DesignKind::concom, 2, 2, 2), 2).result.verdict, Verdict::safe);
  EXPECT_EQ(run(design(DesignKind::concom, 1, 2, 2), 2).result.verdict, Verdict::safe);
}

TEST(Verify, ConcomWithFewerCommunicatorsThanOutstandingKeysBreaksTheThreadRule) {
  for (const auto& [ncomm, outstanding, threads] :
       {std::tuple{1u, 2u, 2u}, std::tuple{2u, 4u, 4u}}) {
    const dag::Job job = design(DesignKind::concom, threads, ncomm, outstanding);
    const Verification v = run(job, 2);
    ASSERT_EQ(v.result.property, Property::p2_thread_rule);
    const std::string text = human_report(System(job, 2), v);
    EXPECT_NE(text.find("P2 thread rule broken on communicator"), std::string::npos) << text;
    expect_replays(job, 2, v);
  }
}

TEST(Verify, ThePapersInitIsUnsafeWithTwoThreadsAndTheRuntimesIsSafe) {
  designs::DesignConfig c = config(DesignKind::depcha, 2);
  c.init = designs::InitKind::fig4;
  // Two keys, so two broadcasts that the two comm threads can start in either order.
  const networks::Network net = networks::mlp(1, 2, 1.0);
  const dag::Job fig4 = designs::build_step_job(net, c, {.include_init = true, .steps = 1});
  const Verification bad = run(fig4, 2);
  expect_replays(fig4, 2, bad);
  c.init = designs::InitKind::safe;
  const dag::Job safe = designs::build_step_job(net, c, {.include_init = true, .steps = 1});
  EXPECT_EQ(run(safe, 2).result.verdict, Verdict::safe);
}

TEST(Verify, TheCrossCommunicatorCycleDeadlocksAndIsDrawnAsAWaitCycle) {
  const dag::Job job = barrier_cycle();
  const Verification v = run(job, 3);
  ASSERT_EQ(v.result.property, Property::p3_deadlock);
  expect_replays(job, 3, v);
  const std::string dot = to_dot(System(job, 3), v.result);
  for (const char* edge : {"rank0 -> rank1", "rank1 -> rank2", "rank2 -> rank0"}) {
    EXPECT_NE(dot.find(edge), std::string::npos) << edge << '\n' << dot;
  }
}

TEST(Verify, OneAllreduceMoreOnRankZeroIsFoundNamingIt) {
  const dag::Job job = allreduce_counts(2, 1);
  const Verification v = run(job, 2);
  ASSERT_EQ(v.result.property, Property::p3_deadlock);
  const auto& d = std::get<comm::Deadlock>(*v.result.violation);
  EXPECT_EQ(d.ranks_blocked, std::vector<dag::Rank>{0});
  const std::vector<comm::WaitEdge> edges = comm::wait_edges(d);
  ASSERT_EQ(edges.size(), 1u);
  EXPECT_EQ(edges[0].from, 0u);
  EXPECT_EQ(edges[0].to, 1u);
  expect_replays(job, 2, v);
}

TEST(Verify, TheJsonReportCarriesTheAnswer) {
  const dag::Job job = allreduce_counts(2, 1);
  const System model(job, 2);
  const Verification v = run(job, 2);
  const nlohmann::json j = nlohmann::json::parse(json_report(model, v));
  EXPECT_EQ(j.at("format"), "ordo-verify");
  EXPECT_EQ(j.at("version"), 2);
  EXPECT_EQ(j.at("verdict"), "unsafe");
  EXPECT_EQ(j.at("property"), "P3");
  EXPECT_EQ(j.at("ranks"), 2);
  EXPECT_EQ(j.at("violation").at("kind"), "deadlock");
  EXPECT_EQ(j.at("violation").at("edges").at(0).at("to"), 1);
  EXPECT_EQ(j.at("witness_transitions"), v.result.witness.size());
}

// A command stopped by its bound before any verification answers with the same object: the
// same fields (a reader needs no second schema), `stats` null, `stopped` saying why, and the
// backend the job was to be checked under.
TEST(Verify, AStoppedAnswerHasTheJsonReportsFields) {
  const dag::Job job = allreduce_counts(2, 1);
  const nlohmann::json answered = nlohmann::json::parse(json_report(System(job, 2), run(job, 2)));
  StoppedAnswer a;
  a.backend = comm::Backend::nccl;
  a.method = "explicit";
  a.bound = Bound::bytes_max;
  a.bound_value = 1024;
  a.stopped = "the memory limit (--memory-max) ran out while building the model";
  const nlohmann::json stopped = nlohmann::json::parse(json_report(a));
  ASSERT_EQ(stopped.size(), answered.size());
  for (const auto& [field, value] : answered.items()) {
    EXPECT_TRUE(stopped.contains(field)) << field;
  }
  EXPECT_TRUE(answered.at("stopped").is_null());
  EXPECT_EQ(stopped.at("verdict"), "unknown");
  EXPECT_EQ(stopped.at("backend"), "nccl");
  EXPECT_TRUE(stopped.at("ranks").is_null());
  EXPECT_TRUE(stopped.at("stats").is_null());
  EXPECT_EQ(stopped.at("bound").at("name"), "bytes_max");
  EXPECT_EQ(stopped.at("bound").at("value"), 1024);
  EXPECT_EQ(stopped.at("stopped"), a.stopped);
}

TEST(Verify, AnExhaustedBudgetIsUnknownNeverSafe) {
  const System model(design(DesignKind::depcha, 2), 3);
  VerifyOptions options;
  options.method = Method::explicit_search;
  options.limits = {500, 60.0};
  const Verification v = verify(model, options);
  EXPECT_EQ(v.result.verdict, Verdict::unknown);
  EXPECT_EQ(v.result.bound, Bound::states_max);
}

}  // namespace
}  // namespace ordo::checker::testing
