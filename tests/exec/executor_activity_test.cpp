// The simulated world's deadlock detector trusts each rank's probe (Executor::activity) to see the
// rank at one instant. A main thread that submits and waits in a tight loop is never stuck, so a
// probe called from another thread meanwhile must never call it quiescent.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/exec/executor.hpp"
#include "tests/exec/one_rank.hpp"

namespace ordo::exec {
namespace {

TEST(ExecutorActivity, AMainThreadThatKeepsMovingIsNeverCalledStuck) {
  test::OneRank rank;
  BodyOptions options;
  options.compute = [](dag::Rank, const dag::Op&, Buffers&) {};
  Executor executor(rank.engine, rank.world.rank(0), rank.comms, options);
  const dag::VarId v = executor.add_var({"v", dag::VarKind::tensor, 4, dag::DType::f32});
  dag::Op op;
  op.name = "work";
  op.writes = {v};

  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> probes{0};
  std::atomic<std::uint64_t> called_stuck{0};
  std::thread prober([&] {
    while (!stop.load()) {
      const comm::sim::RankActivity a = executor.activity();
      if (a.quiescent && !a.finished) ++called_stuck;
      ++probes;
    }
  });
  // Each round leaves the engine empty, then submits and waits: a probe that paired an engine
  // seen empty with a main thread seen waiting would call the rank stuck. At least 700 ms and at
  // least 100 rounds and probes, however slow the machine (within a minute).
  const auto start = std::chrono::steady_clock::now();
  const auto until = start + std::chrono::milliseconds(700);
  const auto cap = start + std::chrono::seconds(60);
  std::uint64_t rounds = 0;
  const auto more = [&] {
    const auto now = std::chrono::steady_clock::now();
    return now < cap && (now < until || rounds <= 100 || probes.load() <= 100);
  };
  while (more()) {
    executor.submit(op);
    if (rounds % 2 == 0) {
      executor.wait_for_all();
    } else {
      executor.wait_to_read(v);
    }
    ++rounds;
  }
  stop = true;
  prober.join();
  executor.main_done();
  EXPECT_GT(rounds, 100u);
  EXPECT_GT(probes.load(), 100u);
  EXPECT_EQ(called_stuck.load(), 0u)
      << "of " << probes.load() << " probes in " << rounds << " rounds";
}

}  // namespace
}  // namespace ordo::exec
