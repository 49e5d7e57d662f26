// A worker whose thread index a blocking collective still holds (its function returned, the op is
// in flight) cannot run anything. A newly ready op must reach a worker that can: notifying one
// sleeper at random could pick the parked one, which sleeps again while the op waits for the
// collective, an order the engine rules never impose (and a deadlock when the collective's
// completion depends on that op, through another rank).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>

#include "runtime/engine/thread_pool_scheduler.hpp"
#include "tests/common/eventually.hpp"
#include "tests/engine/controlled_rig.hpp"

namespace ordo::engine::testing {
namespace {

using ordo::testing::eventually;

TEST(ThreadPoolParked, AReadyOpReachesTheWorkerWhoseIndexIsFree) {
  // Repeated, since which sleeper a notification reaches is up to the OS. Each round makes the
  // parked worker the one that has slept longest, the first a FIFO wake-up would pick.
  for (int round = 0; round < 20; ++round) {
    EngineConfig config;
    config.pools = {dag::Pool{"comm", 2}};
    Engine engine(std::move(config), std::make_unique<ThreadPoolScheduler>());
    auto& pool = static_cast<ThreadPoolScheduler&>(engine.scheduler());
    engine.declare_comm(dag::Communicator{"world", std::nullopt});
    const VarHandle a = engine.new_var(dag::Var{"a"});
    const VarHandle b = engine.new_var(dag::Var{"b"});
    const VarHandle c = engine.new_var(dag::Var{"c"});
    ASSERT_TRUE(eventually([&] { return pool.sleeping_workers(0) == 2; }));

    std::mutex mutex;
    std::optional<AsyncDone> handle;
    OpDesc reduce{"allreduce", {}, {a}};
    reduce.kind = dag::OpKind::collective;
    reduce.collective = collective(dag::CollectiveKind::allreduce, 0, 1, 8);
    engine.submit_async(reduce, [&](const AsyncDone& d) {
      const std::lock_guard lock(mutex);
      handle = d;
    });
    // The collective's worker returned and sleeps on its held index.
    ASSERT_TRUE(eventually([&] {
      const std::lock_guard lock(mutex);
      return handle.has_value() && pool.sleeping_workers(0) == 2;
    }));
    // The other worker runs an op and goes back to sleep, now the newest sleeper.
    std::atomic<bool> c_ran{false};
    engine.submit({"c", {}, {c}, 0}, [&] { c_ran = true; });
    ASSERT_TRUE(eventually([&] { return c_ran.load() && pool.sleeping_workers(0) == 2; }));

    std::atomic<bool> b_ran{false};
    engine.submit({"b", {}, {b}, 0}, [&] { b_ran = true; });
    EXPECT_TRUE(eventually([&] { return b_ran.load(); })) << "round " << round;
    {
      const std::lock_guard lock(mutex);
      (*handle)();
    }
    engine.wait_for_all();
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
}  // namespace ordo::engine::testing
