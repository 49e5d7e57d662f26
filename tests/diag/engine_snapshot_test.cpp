// The engine's state on demand: a blocked op holding its pool's thread, an op queued behind it,
// and the var whose queue holds it, named as a hang report needs them.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "runtime/engine/engine.hpp"
#include "runtime/engine/thread_pool_scheduler.hpp"

namespace ordo::engine {
namespace {

TEST(EngineSnapshot, NamesWhatHoldsEachThreadAndEachQueue) {
  EngineConfig config;
  config.pools = {{"work", 1, dag::PoolKind::fifo}};
  Engine engine(std::move(config), std::make_unique<ThreadPoolScheduler>());
  const VarHandle v = engine.new_var({"v", dag::VarKind::tensor, 4, dag::DType::f32});
  std::mutex m;
  std::condition_variable cv;
  bool started = false;
  bool release = false;
  engine.submit(OpDesc{.name = "first", .writes = {v}}, [&] {
    std::unique_lock lock(m);
    started = true;
    cv.notify_all();
    cv.wait(lock, [&] { return release; });
  });
  engine.submit(OpDesc{.name = "second", .reads = {v}}, [] {});
  {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return started; });
  }
  const std::optional<EngineSnapshot> s = engine.snapshot(std::chrono::seconds(5));
  {
    const std::lock_guard lock(m);
    release = true;
  }
  cv.notify_all();
  engine.wait_for_all();
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->ops_incomplete, 2u);
  ASSERT_EQ(s->pools.size(), 1u);
  EXPECT_EQ(s->pools[0].name, "work");
  ASSERT_EQ(s->pools[0].threads.size(), 1u);
  EXPECT_EQ(s->pools[0].threads[0], std::optional<std::string>("first"));
  ASSERT_EQ(s->ops.size(), 2u);
  EXPECT_EQ(s->ops[0].name, "first");
  EXPECT_EQ(s->ops[0].state, "running");
  EXPECT_EQ(s->ops[1].name, "second");
  EXPECT_EQ(s->ops[1].state, "waiting");
  EXPECT_EQ(s->ops[1].accesses_pending, 1u);
  ASSERT_EQ(s->vars.size(), 1u);
  EXPECT_TRUE(s->vars[0].write_active);
  ASSERT_EQ(s->vars[0].waiting_first.size(), 1u);
  EXPECT_EQ(s->vars[0].waiting_first[0].op, "second");
  EXPECT_FALSE(s->vars[0].waiting_first[0].write);
  // Nothing pending afterwards.
  const std::optional<EngineSnapshot> after = engine.snapshot(std::chrono::seconds(5));
  ASSERT_TRUE(after.has_value());
  EXPECT_TRUE(after->ops.empty());
  EXPECT_TRUE(after->vars.empty());
}

}  // namespace
}  // namespace ordo::engine
