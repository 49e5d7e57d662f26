// Submit batches (runtime/engine/submit_batch.hpp): inside one, an op readied by the batching
// thread waits for that thread's next wait (which runs it) or for the batch to end (which hands it
// to a worker); nothing else holds it back. Each test first lets the pool's one worker fall asleep,
// so that a worker running an op can only mean somebody woke it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "runtime/engine/submit_batch.hpp"
#include "tests/common/eventually.hpp"
#include "tests/engine/thread_pool_rig.hpp"

namespace ordo::engine {
namespace {

using ordo::testing::eventually;

using testing::thread_pool_engine;

ThreadPoolScheduler& pool_of(Engine& engine) {
  return static_cast<ThreadPoolScheduler&>(engine.scheduler());
}

// Records which thread ran the op.
struct Ran {
  std::atomic<bool> done{false};
  std::atomic<bool> on_caller{false};
  void record(std::thread::id caller) {
    on_caller = std::this_thread::get_id() == caller;
    done = true;
  }
};

class SubmitBatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine_ = thread_pool_engine({dag::Pool{"comm", 1}, dag::Pool{"copy", 1}});
    for (dag::PoolId pool : {0u, 1u}) {
      ASSERT_TRUE(eventually([&] { return pool_of(*engine_).sleeping_workers(pool) == 1; }));
    }
  }
  OpHandle submit_recorded(VarHandle var, Ran& ran) {
    return engine_->submit({"op", {}, {var}, 0}, [&ran, caller = caller_] { ran.record(caller); });
  }

  std::unique_ptr<Engine> engine_;
  const std::thread::id caller_ = std::this_thread::get_id();
};

TEST_F(SubmitBatchTest, TheWaitRunsTheDeferredOpOnTheCaller) {
  const VarHandle v = engine_->new_var(dag::Var{"v"});
  Ran ran;
  {
    const SubmitBatch batch(*engine_);
    submit_recorded(v, ran);
    // Nobody was woken: the op is still queued when the caller comes back to wait.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(ran.done.load());
    engine_->wait_for_all();
  }
  EXPECT_TRUE(ran.done.load());
  EXPECT_TRUE(ran.on_caller.load());
}

TEST_F(SubmitBatchTest, EndingTheBatchHandsTheOpToAWorker) {
  const VarHandle v = engine_->new_var(dag::Var{"v"});
  Ran ran;
  {
    const SubmitBatch batch(*engine_);
    submit_recorded(v, ran);
  }
  ASSERT_TRUE(eventually([&] { return ran.done.load(); }));
  EXPECT_FALSE(ran.on_caller.load());
  engine_->wait_for_all();
}

TEST_F(SubmitBatchTest, OnlyTheOutermostBatchHandsOver) {
  const VarHandle v = engine_->new_var(dag::Var{"v"});
  Ran ran;
  {
    const SubmitBatch outer(*engine_);
    {
      const SubmitBatch inner(*engine_);
      submit_recorded(v, ran);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(ran.done.load());
  }
  ASSERT_TRUE(eventually([&] { return ran.done.load(); }));
  EXPECT_FALSE(ran.on_caller.load());
  engine_->wait_for_all();
}

TEST_F(SubmitBatchTest, ReleaseDeferredHandsOverBeforeTheCallerBlocksElsewhere) {
  const VarHandle v = engine_->new_var(dag::Var{"v"});
  Ran ran;
  const SubmitBatch batch(*engine_);
  submit_recorded(v, ran);
  engine_->release_deferred();
  ASSERT_TRUE(eventually([&] { return ran.done.load(); }));
  EXPECT_FALSE(ran.on_caller.load());
  engine_->wait_for_all();
}

// With two ops queued the caller does not help (a woken worker runs them back to back), so the
// wait must hand them over before it sleeps, or it would sleep forever.
TEST_F(SubmitBatchTest, AWaitThatDoesNotRunTheOpsHandsThemOver) {
  const VarHandle a = engine_->new_var(dag::Var{"a"});
  const VarHandle b = engine_->new_var(dag::Var{"b"});
  Ran first;
  Ran second;
  const SubmitBatch batch(*engine_);
  submit_recorded(a, first);
  submit_recorded(b, second);
  engine_->wait_for_all();
  EXPECT_TRUE(first.done.load() && second.done.load());
  EXPECT_FALSE(first.on_caller.load() || second.on_caller.load());
}

// Ops that the op a wait ran made ready, and the wait did not need, go to the workers when the
// wait returns: the caller may go on to block elsewhere.
TEST_F(SubmitBatchTest, OpsReadiedWhileHelpingGoToWorkersWhenTheWaitReturns) {
  const VarHandle v = engine_->new_var(dag::Var{"v"});
  const VarHandle w = engine_->new_var(dag::Var{"w"});
  Ran writer;
  Ran reader;
  const SubmitBatch batch(*engine_);
  submit_recorded(v, writer);
  // Reads v, writes w: ready only once the writer completed, and not needed by wait_to_read(v).
  // On the other pool, whose worker nothing else wakes.
  engine_->submit({"after", {v}, {w}, 1}, [&reader, caller = caller_] { reader.record(caller); });
  engine_->wait_to_read(v);
  EXPECT_TRUE(writer.on_caller.load());
  ASSERT_TRUE(eventually([&] { return reader.done.load(); }));
  EXPECT_FALSE(reader.on_caller.load());
  engine_->wait_for_all();
}

// A batch on one thread defers nothing another thread readies.
TEST_F(SubmitBatchTest, AnotherThreadsSubmissionsAreNotDeferred) {
  const VarHandle v = engine_->new_var(dag::Var{"v"});
  Ran ran;
  const SubmitBatch batch(*engine_);
  std::thread other([&] { submit_recorded(v, ran); });
  other.join();
  ASSERT_TRUE(eventually([&] { return ran.done.load(); }));
  EXPECT_FALSE(ran.on_caller.load());
  engine_->wait_for_all();
}

}  // namespace
}  // namespace ordo::engine
