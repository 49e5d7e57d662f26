// Shutdown of the production pool: queued work is discarded, started work is waited for, and
// nothing hangs. Ordering is established through the destruction of discarded functions, never
// through sleeps.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <optional>
#include <thread>

#include "runtime/engine/errors.hpp"
#include "tests/engine/controlled_rig.hpp"
#include "tests/engine/thread_pool_rig.hpp"

namespace ordo::engine::testing {
namespace {

OpDesc async_desc(VarHandle var) {
  OpDesc op{"in-flight", {}, {var}};
  op.kind = dag::OpKind::async_collective;
  op.collective = collective(dag::CollectiveKind::barrier, 0);
  return op;
}

// The running op blocks until the op queued behind it is discarded, which only shutdown does.
TEST(ThreadPoolShutdown, DiscardsQueuedOpsAndWaitsForTheRunningOne) {
  const auto engine = thread_pool_engine({dag::Pool{"cpu", 2}});
  const VarHandle v = engine->new_var(dag::Var{"v"});
  std::promise<void> discarded;
  std::promise<void> started;
  bool blocker_finished = false;
  engine->submit(OpDesc{"blocker", {}, {v}}, [&] {
    started.set_value();
    discarded.get_future().wait();
    blocker_finished = true;
  });
  bool queued_ran = false;
  auto guard = std::make_shared<OnDestroy>([&discarded] { discarded.set_value(); });
  engine->submit(OpDesc{"queued", {v}, {}},
               [&queued_ran, guard = std::move(guard)] { queued_ran = true; });
  engine->submit(OpDesc{"also-queued", {}, {v}}, [&queued_ran] { queued_ran = true; });
  started.get_future().wait();
  EXPECT_EQ(engine->shutdown(), (ShutdownReport{2, 0}));
  EXPECT_TRUE(blocker_finished);
  EXPECT_FALSE(queued_ran);
}

TEST(ThreadPoolShutdown, WaitsForAnAsyncOpInFlight) {
  const auto engine = thread_pool_engine({dag::Pool{"comm", 1}});
  engine->declare_comm(dag::Communicator{"world", std::nullopt});
  const VarHandle v = engine->new_var(dag::Var{"v"});
  std::promise<AsyncDone> handle;
  engine->submit_async(async_desc(v), [&handle](AsyncDone done) { handle.set_value(done); });
  std::promise<void> discarded;
  auto guard = std::make_shared<OnDestroy>([&discarded] { discarded.set_value(); });
  engine->submit(OpDesc{"queued", {v}, {}}, [guard = std::move(guard)] {});
  const AsyncDone done = handle.get_future().get();  // the op started and is in flight
  std::thread completer([&discarded, done] {
    discarded.get_future().wait();
    done();
  });
  EXPECT_EQ(engine->shutdown(), (ShutdownReport{1, 0}));
  completer.join();
}

TEST(ThreadPoolShutdown, AbandonsALeakedHandleAfterTheBound) {
  const auto engine = thread_pool_engine({dag::Pool{"comm", 1}}, Limits{}, ThreadPoolOptions{20});
  engine->declare_comm(dag::Communicator{"world", std::nullopt});
  const VarHandle v = engine->new_var(dag::Var{"v"});
  std::promise<AsyncDone> handle;
  engine->submit_async(async_desc(v), [&handle](AsyncDone done) { handle.set_value(done); });
  const AsyncDone leaked = handle.get_future().get();
  EXPECT_EQ(engine->shutdown(), (ShutdownReport{0, 1}));
  EXPECT_NO_THROW(leaked());  // the engine no longer listens; the completion is dropped
}

TEST(ThreadPoolShutdown, WaiterOnADiscardedWriteIsReleased) {
  const auto engine = thread_pool_engine({dag::Pool{"cpu", 1}});
  const VarHandle v = engine->new_var(dag::Var{"v"});
  const VarHandle w = engine->new_var(dag::Var{"w"});
  std::promise<void> discarded;
  std::promise<void> started;
  engine->submit(OpDesc{"blocker", {}, {v}}, [&] {
    started.set_value();
    discarded.get_future().wait();
  });
  auto guard = std::make_shared<OnDestroy>([&discarded] { discarded.set_value(); });
  engine->submit(OpDesc{"writer", {v}, {w}}, [guard = std::move(guard)] {});
  started.get_future().wait();
  std::thread waiter([&] { EXPECT_THROW(engine->wait_to_read(w), EngineStopped); });
  engine->shutdown();
  waiter.join();
}

TEST(ThreadPoolShutdown, DestructionWithQueuedWorkAccountsForEveryOp) {
  constexpr int ops = 10'000;
  std::atomic<std::uint64_t> ran{0};
  ShutdownReport report;
  {
    const auto engine = thread_pool_engine({dag::Pool{"cpu", 2}, dag::Pool{"io", 1}});
    const VarHandle v = engine->new_var(dag::Var{"v"});
    for (int i = 0; i < ops; ++i) {
      engine->submit(OpDesc{"op", {}, {v}, static_cast<dag::PoolId>(i % 2)}, [&ran] { ++ran; });
    }
    report = engine->shutdown();
  }
  EXPECT_EQ(report.ops_abandoned, 0u);
  EXPECT_EQ(report.ops_discarded + ran.load(), static_cast<std::uint64_t>(ops));
}

}  // namespace
}  // namespace ordo::engine::testing
