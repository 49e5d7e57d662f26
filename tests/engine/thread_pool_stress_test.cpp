// The production thread pool under load. Shared data here is protected only by the engine's var
// semantics, so any ordering bug is a wrong sum or a ThreadSanitizer report.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tests/engine/random_dag.hpp"
#include "tests/engine/thread_pool_rig.hpp"

namespace ordo::engine::testing {
namespace {

std::vector<dag::Pool> three_pools() {
  return {dag::Pool{"cpu", 2}, dag::Pool{"io", 2}, dag::Pool{"prio", 2, dag::PoolKind::priority}};
}

TEST(ThreadPoolStress, WriteChainIncrementsAPlainIntExactly) {
  constexpr int ops = 100'000;
  const auto engine = thread_pool_engine(three_pools());
  const VarHandle v = engine->new_var(dag::Var{"counter"});
  int counter = 0;  // deliberately not atomic
  for (int i = 0; i < ops; ++i) {
    const auto pool = static_cast<dag::PoolId>(i % 3);
    engine->submit(OpDesc{"inc", {}, {v}, pool}, [&counter] { ++counter; });
  }
  engine->wait_to_read(v);
  EXPECT_EQ(counter, ops);
}

TEST(ThreadPoolStress, ReadersSeeExactlyTheWriteSubmittedBeforeThem) {
  constexpr int writes = 2'000;
  constexpr int readers_per_write = 6;
  const auto engine = thread_pool_engine(three_pools());
  const VarHandle v = engine->new_var(dag::Var{"pair"});
  struct Pair {
    int first = -1;
    int second = -1;
  } pair;
  std::atomic<int> mismatches{0};
  for (int k = 0; k < writes; ++k) {
    engine->submit(OpDesc{"write", {}, {v}, static_cast<dag::PoolId>(k % 3)}, [&pair, k] {
      pair.first = k;
      pair.second = k;
    });
    for (int r = 0; r < readers_per_write; ++r) {
      engine->submit(OpDesc{"read", {v}, {}, static_cast<dag::PoolId>(r % 3)},
                   [&pair, &mismatches, k] {
                     if (pair.first != k || pair.second != k) ++mismatches;
                   });
    }
  }
  engine->wait_for_all();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(pair.first, writes - 1);
}

TEST(ThreadPoolStress, RandomGraphsMatchSubmitOrderExecution) {
  for (std::uint64_t seed = 0; seed < 4; ++seed) {
    const RandomDag dag = make_random_dag(seed, 12, 3'000, 3);
    const auto engine = thread_pool_engine(three_pools());
    DagOutcome outcome;
    submit_dag(*engine, dag, outcome);
    engine->wait_for_all();
    ASSERT_EQ(outcome, run_in_submit_order(dag)) << "seed " << seed;
  }
}

TEST(ThreadPoolStress, SubmitBlocksAtTheOpsPendingBoundAndResumes) {
  constexpr int ops = 20'000;
  const auto engine = thread_pool_engine(three_pools(), Limits{8});
  const VarHandle v = engine->new_var(dag::Var{"counter"});
  int counter = 0;
  for (int i = 0; i < ops; ++i) {
    engine->submit(OpDesc{"inc", {}, {v}, static_cast<dag::PoolId>(i % 3)},
                 [&counter] { ++counter; });
  }
  engine->wait_for_all();
  EXPECT_EQ(counter, ops);
}

TEST(ThreadPoolStress, OpsSubmittedFromOpsAreWaitedFor) {
  constexpr int parents = 500;
  constexpr int children = 4;
  const auto engine = thread_pool_engine(three_pools());
  std::atomic<int> ran{0};
  for (int i = 0; i < parents; ++i) {
    engine->submit(OpDesc{"parent", {}, {}, static_cast<dag::PoolId>(i % 3)}, [&engine, &ran] {
      for (int c = 0; c < children; ++c) {
        engine->submit(OpDesc{"child", {}, {}, static_cast<dag::PoolId>(c % 3)}, [&ran] { ++ran; });
      }
    });
  }
  engine->wait_for_all();
  EXPECT_EQ(ran.load(), parents * children);
}

TEST(ThreadPoolStress, ConcurrentCallersWaitOnTheirOwnVars) {
  constexpr int callers = 3;
  constexpr int writes = 3'000;
  const auto engine = thread_pool_engine(three_pools());
  std::vector<VarHandle> vars;
  for (int c = 0; c < callers; ++c) vars.push_back(engine->new_var(dag::Var{"v"}));
  std::vector<int> values(static_cast<std::size_t>(callers), 0);
  std::atomic<int> stale_reads{0};
  std::vector<std::thread> threads;
  for (int c = 0; c < callers; ++c) {
    threads.emplace_back([&, c] {
      const auto mine = static_cast<std::size_t>(c);
      for (int k = 1; k <= writes; ++k) {
        engine->submit(OpDesc{"set", {}, {vars[mine]}, static_cast<dag::PoolId>(k % 3)},
                     [&values, mine, k] { values[mine] = k; });
        if (k % 50 == 0) {
          engine->wait_to_read(vars[mine]);
          if (values[mine] != k) ++stale_reads;
        }
      }
      engine->wait_for_all();
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(stale_reads.load(), 0);
  EXPECT_EQ(values, std::vector<int>(static_cast<std::size_t>(callers), writes));
}

}  // namespace
}  // namespace ordo::engine::testing
