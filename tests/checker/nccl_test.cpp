// Known answers under the NCCL semantics (docs/semantics.md, D1-D4): every call a launch onto
// the rank's one stream, completed in launch order across communicators. Concurrent
// communicators, safe on MPI, deadlock there, and the witness replays on the runtime's simulated
// NCCL world; the designs that order their calls stay safe, decided by the explicit search and,
// where D4 holds, by the symbolic stage on MPI's model of the same launched job.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "checker/search/explore.hpp"
#include "checker/verify/verify.hpp"
#include "checker/witness/trace_io.hpp"
#include "runtime/comm/rules/backend.hpp"
#include "tests/checker/jobs.hpp"
#include "tests/checker/replay.hpp"

namespace ordo::checker::testing {
namespace {

using comm::Backend;
using designs::DesignKind;

constexpr ExploreLimits nccl_limits{3'000'000, 120.0};

void expect_replays_under(const dag::Job& job, std::uint32_t ranks, Backend backend,
                          const Result& result) {
  exec::ControlledRun run(job, ranks, {}, backend);
  const std::optional<exec::RunOutcome> end = replay(run, result.witness);
  ASSERT_TRUE(end);
  if (result.property == Property::p3_deadlock) {
    // The runtime's run sees the deadlock when nothing can move, and names the streams.
    ASSERT_EQ(end->end, exec::RunEnd::deadlock) << end->report;
    EXPECT_NE(end->report.find("stream"), std::string::npos) << end->report;
    // Described as the checker describes it, streams and all.
    EXPECT_EQ(run.deadlock(), std::get<comm::Deadlock>(*result.violation)) << end->report;
    return;
  }
  ASSERT_EQ(end->end, exec::RunEnd::violation) << end->report;
  ASSERT_TRUE(run.violation());
  EXPECT_EQ(run.violation()->index(), result.violation->index()) << end->report;
}

TEST(Nccl, ConcurrentCommunicatorsDeadlockOnStreamsAndAreSafeOnMpi) {
  const dag::Job job = step_job(branches(), config(DesignKind::concom, 2));
  for (std::uint32_t ranks : {2u, 3u}) {
    const System mpi(job, ranks);
    EXPECT_EQ(explore(mpi, nccl_limits).verdict, Verdict::safe) << ranks;
    const System nccl(job, ranks, Backend::nccl);
    const Result r = explore(nccl, nccl_limits);
    ASSERT_EQ(r.verdict, Verdict::unsafe) << report(nccl, r);
    ASSERT_EQ(r.property, Property::p3_deadlock) << report(nccl, r);
    const auto& d = std::get<comm::Deadlock>(*r.violation);
    const std::vector<std::string> waits = comm::wait_lines(d);
    EXPECT_TRUE(std::any_of(waits.begin(), waits.end(), [](const std::string& w) {
      return w.find("stream") != std::string::npos && w.find("matched") != std::string::npos;
    })) << report(nccl, r);
    expect_replays_under(job, ranks, Backend::nccl, r);
  }
}

// Ordered designs: one chain, one thread, or the main thread alone.
TEST(Nccl, OrderedDesignsAreSafeOnStreams) {
  for (DesignKind kind : {DesignKind::funnel, DesignKind::depcha, DesignKind::fused,
                          DesignKind::nonblocking, DesignKind::priority}) {
    const dag::Job job = step_job(branches(), config(kind, 2));
    for (std::uint32_t ranks : {2u, 3u}) {
      const System model(job, ranks, Backend::nccl);
      const Result r = explore(model, nccl_limits);
      EXPECT_EQ(r.verdict, Verdict::safe) << designs::to_string(kind) << " at " << ranks << "\n"
                                          << report(model, r);
    }
  }
}

// The naive design's pool race is a mismatch whatever carries the calls.
TEST(Nccl, TheNaivePoolRaceIsStillAMismatch) {
  const dag::Job job = step_job(branches(), config(DesignKind::naive, 2));
  const System model(job, 2, Backend::nccl);
  const Result r = explore(model, nccl_limits);
  ASSERT_EQ(r.verdict, Verdict::unsafe);
  EXPECT_EQ(r.property, Property::p1_order);
  expect_replays_under(job, 2, Backend::nccl, r);
}

// Hierarchical launches on three communicators per rank, in one chain: safe on streams too.
TEST(Nccl, HierarchicalInOneChainIsSafeOnStreams) {
  designs::DesignConfig c = config(DesignKind::hierarchical, 2);
  c.nodes = 2;
  c.node_ranks = 2;
  const dag::Job job = step_job(one_key(), c);
  const System model(job, 4, Backend::nccl);
  EXPECT_FALSE(comm::streams_add_nothing(model.job()));
  const Result r = explore(model, nccl_limits);
  EXPECT_EQ(r.verdict, Verdict::safe) << report(model, r);
}

// D4: where streams add nothing, the symbolic stage decides on MPI's model, and the explicit
// search under NCCL agrees.
TEST(Nccl, SymbolicAnswersCarryOverOnlyWhereStreamsAddNothing) {
  for (DesignKind kind : {DesignKind::depcha, DesignKind::funnel, DesignKind::priority}) {
    const System model(step_job(branches(), config(kind, 2)), 2, Backend::nccl);
    ASSERT_TRUE(comm::streams_add_nothing(model.job())) << designs::to_string(kind);
    const Verification v = verify(model, VerifyOptions{});
    EXPECT_EQ(v.result.verdict, Verdict::safe) << human_report(model, v);
    EXPECT_EQ(v.decided_by, Method::symbolic) << human_report(model, v);
    ASSERT_FALSE(v.facts.empty());
    EXPECT_NE(v.facts.front().find("D4"), std::string::npos) << v.facts.front();
    VerifyOptions explicit_only;
    explicit_only.method = Method::explicit_search;
    EXPECT_EQ(verify(model, explicit_only).result.verdict, Verdict::safe);
  }
  const System concom(step_job(branches(), config(DesignKind::concom, 2)), 2, Backend::nccl);
  const Verification v = verify(concom, VerifyOptions{});
  EXPECT_EQ(v.result.verdict, Verdict::unsafe) << human_report(concom, v);
  EXPECT_EQ(v.decided_by, Method::explicit_search);
  ASSERT_TRUE(v.symbolic_note);
  EXPECT_NE(v.symbolic_note->find("D4"), std::string::npos) << *v.symbolic_note;
  EXPECT_NE(human_report(concom, v).find("under the nccl semantics"), std::string::npos);
}

// A witness found under NCCL says so, and is refused against MPI's model of the same job.
TEST(Nccl, TracesCarryTheirBackend) {
  const dag::Job job = step_job(branches(), config(DesignKind::concom, 2));
  const System nccl(job, 2, Backend::nccl);
  const Result r = explore(nccl, nccl_limits);
  ASSERT_EQ(r.verdict, Verdict::unsafe);
  const Trace trace = read_trace(write_trace(nccl, r));
  EXPECT_EQ(trace.backend, Backend::nccl);
  EXPECT_FALSE(trace_mismatch(nccl, trace));
  const System mpi(job, 2);
  const std::optional<std::string> bad = trace_mismatch(mpi, trace);
  ASSERT_TRUE(bad);
  EXPECT_NE(bad->find("nccl"), std::string::npos) << *bad;
  // A trace of MPI's semantics names no backend, so older readers and traces agree.
  const System naive(step_job(branches(), config(DesignKind::naive, 2)), 2);
  const std::string text = write_trace(naive, explore(naive, nccl_limits));
  EXPECT_EQ(text.find("backend"), std::string::npos);
  EXPECT_EQ(read_trace(text).backend, Backend::mpi);
}

}  // namespace
}  // namespace ordo::checker::testing
