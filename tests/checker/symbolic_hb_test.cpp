// The happens-before graph: exactly the orderings the engine guarantees (var queues, waits, the
// main thread's order, a main-thread collective's return), none of the orderings pools may add,
// event ids in a topological order; and Z3's answers over the timeline agree with plain graph
// search on every link of the designs' chains.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "checker/symbolic/hb.hpp"
#include "checker/symbolic/order_queries.hpp"
#include "checker/symbolic/pool_query.hpp"
#include "checker/symbolic/timeline.hpp"
#include "runtime/networks/network.hpp"
#include "runtime/designs/step_builder.hpp"
#include "tests/checker/jobs.hpp"

namespace ordo::checker::testing {
namespace {

using symbolic::EventId;
using symbolic::HappensBefore;

dag::Op op(const std::string& name, std::vector<dag::VarId> reads, std::vector<dag::VarId> writes,
           dag::OpKind kind = dag::OpKind::compute) {
  dag::Op o;
  o.name = name;
  o.reads = std::move(reads);
  o.writes = std::move(writes);
  o.kind = kind;
  if (dag::is_collective(kind)) {
    o.collective = dag::Collective{dag::CollectiveKind::allreduce,
                                   0,
                                   0,
                                   1,
                                   dag::DType::f32,
                                   dag::Reduction::sum,
                                   std::nullopt};
  }
  return o;
}

// Vars v0, v1; ops submitted in id order: w0 writes v0, r1 and r2 read it, w3 writes it again,
// r4 reads v1 (independent), then wait_to_read(v0), a main barrier, and wait_for_all.
dag::Program queue_program() {
  dag::Program p;
  p.name = "queue";
  p.pools = {{"compute", 2, dag::PoolKind::fifo}};
  p.vars = {{"v0", dag::VarKind::token, 0, dag::DType::u8},
            {"v1", dag::VarKind::token, 0, dag::DType::u8}};
  p.ops = {op("w0", {}, {0}), op("r1", {0}, {}), op("r2", {0}, {}), op("w3", {}, {0}),
           op("r4", {1}, {})};
  for (dag::OpId o = 0; o < p.ops.size(); ++o) p.main.emplace_back(dag::SubmitAction{o});
  p.main.emplace_back(dag::WaitToReadAction{0});
  dag::CollectiveAction barrier;
  barrier.collective = dag::Collective{
      dag::CollectiveKind::barrier, 0, 0, 0, dag::DType::f32, dag::Reduction::none, std::nullopt};
  p.main.emplace_back(barrier);
  p.main.emplace_back(dag::WaitForAllAction{});
  return p;
}

TEST(SymbolicHb, VarQueuesOrderWritesAgainstEverythingAndReadsOnlyAgainstWrites) {
  const HappensBefore hb(queue_program());
  EXPECT_TRUE(hb.reaches(hb.complete(0), hb.start(1)));  // read after write
  EXPECT_TRUE(hb.reaches(hb.complete(0), hb.start(2)));
  EXPECT_FALSE(hb.reaches(hb.complete(1), hb.start(2)));  // two reads run together
  EXPECT_FALSE(hb.reaches(hb.start(2), hb.complete(1)));
  EXPECT_TRUE(hb.reaches(hb.complete(1), hb.start(3)));  // a write waits for every read
  EXPECT_TRUE(hb.reaches(hb.complete(2), hb.start(3)));
  EXPECT_FALSE(hb.reaches(hb.complete(0), hb.start(4)));  // another var: no order
  EXPECT_FALSE(hb.reaches(hb.complete(3), hb.start(4)));
  EXPECT_TRUE(hb.reaches(hb.main(4), hb.start(4)));  // submitted before it starts
}

TEST(SymbolicHb, WaitsFollowTheCompletionsTheyWaitFor) {
  const HappensBefore hb(queue_program());
  const EventId wait_v0 = hb.main(5);
  EXPECT_TRUE(hb.reaches(hb.complete(3), wait_v0));
  EXPECT_FALSE(hb.reaches(hb.complete(4), wait_v0));  // r4 reads v1, not waited for
  const EventId wait_all = hb.main(7);
  for (dag::OpId o = 0; o < 5; ++o) EXPECT_TRUE(hb.reaches(hb.complete(o), wait_all)) << o;
}

TEST(SymbolicHb, AMainCollectiveReturnsBeforeTheNextAction) {
  const HappensBefore hb(queue_program());
  ASSERT_EQ(hb.calls().size(), 1u);
  const symbolic::CallEvents& barrier = hb.calls()[0];
  EXPECT_FALSE(barrier.op.has_value());
  EXPECT_EQ(barrier.issue, hb.main(6));
  EXPECT_EQ(hb.event(barrier.complete).kind, symbolic::EventKind::returned);
  EXPECT_TRUE(hb.reaches(barrier.issue, barrier.complete));
  EXPECT_TRUE(hb.reaches(barrier.complete, hb.main(7)));
  EXPECT_FALSE(hb.reaches(barrier.complete, hb.complete(4)));  // the engine runs on
}

TEST(SymbolicHb, EventIdsAreATopologicalOrder) {
  const dag::Job job =
      designs::build_step_job(networks::resnet50(1e5), config(designs::DesignKind::depcha, 2), {});
  const HappensBefore hb(job.programs.at(0));
  EXPECT_GT(hb.events(), 1000u);
  for (EventId e = 0; e < hb.events(); ++e) {
    for (EventId p : hb.preds(e)) ASSERT_LT(p, e);
  }
}

TEST(SymbolicHb, RejectsAProgramThatNeverSubmitsAnOp) {
  dag::Program p = queue_program();
  p.main.erase(p.main.begin() + 2);  // r2 is never submitted
  EXPECT_THROW(HappensBefore{p}, std::invalid_argument);
  dag::Program q = queue_program();
  q.ops[1].reads = {7};  // no such var
  EXPECT_THROW(HappensBefore{q}, std::invalid_argument);
}

// For every link of every communicator's chain, Z3 says "may break" exactly when no path of
// edges orders the two calls: the timeline encodes the graph, no more, no less.
void expect_z3_agrees_with_search(const dag::Job& job) {
  const HappensBefore hb(job.programs.at(0));
  z3::context ctx;
  symbolic::Timeline timeline(ctx, hb);
  std::uint32_t links = 0;
  for (dag::CommId c = 0; c < job.comms.size(); ++c) {
    const std::vector<std::uint32_t> calls = symbolic::calls_on(hb, c);
    for (std::size_t i = 0; i + 1 < calls.size(); ++i) {
      const symbolic::CallEvents& a = hb.calls()[calls[i]];
      const symbolic::CallEvents& b = hb.calls()[calls[i + 1]];
      const symbolic::Answer z3_says = timeline.check(
          symbolic::link_broken(timeline, calls, i, symbolic::Link::matched_before_issue), 60.0,
          nullptr);
      ASSERT_NE(z3_says, symbolic::Answer::unknown);
      EXPECT_EQ(z3_says == symbolic::Answer::unsat, hb.reaches(a.complete, b.issue))
          << "comm " << c << " link " << i;
      ++links;
    }
  }
  EXPECT_GT(links, 0u);
}

TEST(SymbolicHb, Z3AgreesWithGraphSearchOnEveryLink) {
  for (designs::DesignKind kind : {designs::DesignKind::naive, designs::DesignKind::funnel,
                                   designs::DesignKind::concom, designs::DesignKind::depcha}) {
    SCOPED_TRACE(std::string(designs::to_string(kind)));
    designs::DesignConfig c = config(kind, 2);
    c.ncomm = 1;  // concom: two keys per window on one communicator, unordered
    expect_z3_agrees_with_search(designs::build_step_job(networks::mlp(3, 4, 1.0), c, {}));
  }
}

// A chain answered by paths (every link a path of edges) is one Z3 would find unsat, and a chain
// with a link that is no path still goes to Z3 and comes back sat when times are asked for; when
// they are not, the graph's answer is Z3's either way.
TEST(SymbolicHb, ChainsAnsweredByPathsAreTheOnesZ3FindsUnsat) {
  std::uint32_t by_paths = 0;
  std::uint32_t sat = 0;
  for (designs::DesignKind kind : {designs::DesignKind::naive, designs::DesignKind::funnel,
                                   designs::DesignKind::concom, designs::DesignKind::depcha}) {
    for (const std::uint32_t ncomm : {1u, 2u}) {
      designs::DesignConfig c = config(kind, 2);
      c.ncomm = ncomm;
      const dag::Job job = designs::build_step_job(networks::mlp(3, 4, 1.0), c, {});
      const HappensBefore hb(job.programs.at(0));
      z3::context ctx;
      symbolic::Timeline timeline(ctx, hb);
      std::vector<std::vector<std::uint32_t>> chains = {symbolic::all_calls(hb)};
      for (dag::CommId comm = 0; comm < job.comms.size(); ++comm) {
        chains.push_back(symbolic::calls_on(hb, comm));
      }
      for (std::size_t k = 0; k < chains.size(); ++k) {
        const std::vector<std::uint32_t>& calls = chains[k];
        if (calls.size() < 2) continue;
        const symbolic::Link link =
            k == 0 ? symbolic::Link::issue_before_issue : symbolic::Link::matched_before_issue;
        z3::expr_vector broken(ctx);
        for (std::size_t i = 0; i + 1 < calls.size(); ++i) {
          broken.push_back(symbolic::link_broken(timeline, calls, i, link));
        }
        const symbolic::Answer z3_says = timeline.check(z3::mk_or(broken), 60.0, nullptr);
        const symbolic::ChainAnswer answer = symbolic::check_chain(timeline, calls, link, 60.0);
        EXPECT_EQ(answer.answer, z3_says) << designs::to_string(kind) << " chain " << k;
        by_paths += answer.by_paths;
        sat += answer.answer == symbolic::Answer::sat;
        EXPECT_FALSE(answer.by_paths && answer.answer != symbolic::Answer::unsat);
        // Without times, the graph answers both ways, as Z3 does, and a sat names a link that
        // is no path.
        const symbolic::ChainAnswer graph = symbolic::check_chain(timeline, calls, link, 60.0, false);
        EXPECT_TRUE(graph.by_paths);
        EXPECT_EQ(graph.answer, z3_says);
        if (graph.answer == symbolic::Answer::sat) {
          const symbolic::CallEvents& a = hb.calls()[calls[graph.link]];
          const symbolic::CallEvents& b = hb.calls()[calls[graph.link + 1]];
          const bool must_match =
              link == symbolic::Link::matched_before_issue && (a.blocking || b.blocking);
          EXPECT_FALSE(hb.reaches(must_match ? a.complete : a.issue, b.issue));
        }
      }
    }
  }
  EXPECT_GT(by_paths, 5u);
  EXPECT_GT(sat, 0u);
}

// The graph searches keep the checker's time bound: with no time left they answer unknown with a
// reason, never run on.
TEST(SymbolicHb, GraphProofsWithNoTimeLeftAnswerUnknown) {
  designs::DesignConfig c = config(designs::DesignKind::depcha, 2);
  const dag::Job job = designs::build_step_job(networks::mlp(3, 4, 1.0), c, {});
  const HappensBefore hb(job.programs.at(0));
  z3::context ctx;
  symbolic::Timeline timeline(ctx, hb);
  const symbolic::ChainAnswer chain = symbolic::check_chain(
      timeline, symbolic::all_calls(hb), symbolic::Link::issue_before_issue, 0.0, false);
  EXPECT_EQ(chain.answer, symbolic::Answer::unknown);
  EXPECT_NE(chain.reason.find("time ran out"), std::string::npos) << chain.reason;
  dag::Program p = job.programs.at(0);
  for (dag::Op& o : p.ops) {
    if (dag::is_collective(o.kind)) o.kind = dag::OpKind::collective;  // blocking: not counted
  }
  const symbolic::PoolAnswer pool =
      symbolic::check_pool(ctx, HappensBefore(p), p, designs::comm_pool, 0.0);
  EXPECT_EQ(pool.answer, symbolic::Answer::unknown);
  EXPECT_NE(pool.reason.find("time ran out"), std::string::npos) << pool.reason;
}

// Random pools: ops on a few vars (so that var queues order some of them), some blocking
// collectives, one to three threads. The width argument, where it answers, must answer as the
// clique query does, and it must answer often enough to matter.
TEST(SymbolicHb, PoolWidthsAnswerAsTheCliqueQueryDoes) {
  std::mt19937_64 rng(11);
  std::uint32_t by_width = 0;
  std::uint32_t compared = 0;
  for (int trial = 0; trial < 300; ++trial) {
    dag::Program p;
    p.name = "pool";
    const std::uint32_t threads = 1 + static_cast<std::uint32_t>(rng() % 3);
    p.pools = {{"comm", threads, dag::PoolKind::fifo}};
    const std::uint32_t vars = 2 + static_cast<std::uint32_t>(rng() % 4);
    for (std::uint32_t v = 0; v < vars; ++v) {
      p.vars.push_back({"v" + std::to_string(v), dag::VarKind::token, 0, dag::DType::u8});
    }
    const std::uint32_t ops = 3 + static_cast<std::uint32_t>(rng() % 10);
    for (std::uint32_t o = 0; o < ops; ++o) {
      std::vector<dag::VarId> reads;
      std::vector<dag::VarId> writes;
      for (dag::VarId v = 0; v < vars; ++v) {
        const std::uint64_t r = rng() % 6;
        if (r == 0) writes.push_back(v);
        if (r == 1) reads.push_back(v);
      }
      const bool blocking = rng() % 3 != 0;
      p.ops.push_back(op("o" + std::to_string(o), reads, writes,
                         blocking ? dag::OpKind::collective : dag::OpKind::compute));
      p.main.emplace_back(dag::SubmitAction{o});
    }
    p.main.emplace_back(dag::WaitForAllAction{});
    const HappensBefore hb(p);
    z3::context ctx;
    const symbolic::PoolAnswer fast = symbolic::check_pool(ctx, hb, p, 0, 60.0, true);
    const symbolic::PoolAnswer clique = symbolic::check_pool(ctx, hb, p, 0, 60.0, false);
    ASSERT_NE(clique.answer, symbolic::Answer::unknown);
    EXPECT_EQ(fast.answer, clique.answer) << "trial " << trial;
    by_width += fast.by_width;
    compared += !clique.counted;
  }
  EXPECT_GT(compared, 100u);
  EXPECT_GT(by_width, 20u);
}

}  // namespace
}  // namespace ordo::checker::testing
