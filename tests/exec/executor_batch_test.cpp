// A main-thread collective may block until other ranks get further, and they may need an op this
// rank's submit batch still holds back; the executor hands such ops to the workers before it
// issues the call (runtime/engine/submit_batch.hpp).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "runtime/engine/submit_batch.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"
#include "runtime/exec/executor.hpp"
#include "tests/common/eventually.hpp"
#include "tests/exec/one_rank.hpp"

namespace ordo::exec {
namespace {

using ordo::testing::eventually;

TEST(ExecutorBatch, AMainThreadCollectiveHandsDeferredOpsToTheWorkers) {
  test::OneRank rank;
  auto& pool = static_cast<engine::ThreadPoolScheduler&>(rank.engine.scheduler());
  ASSERT_TRUE(eventually([&] { return pool.sleeping_workers(0) == 1; }));

  std::atomic<bool> ran{false};
  BodyOptions options;
  options.compute = [&](dag::Rank, const dag::Op&, Buffers&) { ran = true; };
  Executor executor(rank.engine, rank.world.rank(0), rank.comms, options);
  const dag::VarId v = executor.add_var({"v", dag::VarKind::tensor, 4, dag::DType::f32});

  const engine::SubmitBatch batch(rank.engine);
  dag::Op op;
  op.name = "work";
  op.writes = {v};
  executor.submit(op);
  executor.collective(
      dag::CollectiveAction{dag::Collective{dag::CollectiveKind::barrier, 0, -1, 0, dag::DType::f32,
                                            dag::Reduction::none, std::nullopt},
                            std::nullopt});
  // Without a wait on the engine, only a worker can have run it.
  EXPECT_TRUE(eventually([&] { return ran.load(); }));
  executor.wait_for_all();
  ASSERT_FALSE(rank.world.violation());
}

}  // namespace
}  // namespace ordo::exec
