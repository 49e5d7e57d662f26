// Device pools on the host stand-in for a stream (HostDeviceQueue): an op's function only
// enqueues, and the op completes when the queue reaches its marker. Work on the queue waits on
// gates the test opens, which is how a test holds a "stream" busy without timing.
#include "runtime/engine/device_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "runtime/engine/errors.hpp"
#include "runtime/engine/host_device_queue.hpp"
#include "tests/common/eventually.hpp"
#include "tests/engine/controlled_rig.hpp"
#include "tests/engine/thread_pool_rig.hpp"

namespace ordo::engine::testing {
namespace {

using ordo::testing::eventually;

// Work that waits on it stands for a kernel still running.
class Gate {
 public:
  void open() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      open_ = true;
    }
    opened_.notify_all();
  }
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    opened_.wait(lock, [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

OpDesc device_op(const std::string& name, std::vector<VarHandle> reads,
                 std::vector<VarHandle> writes, dag::PoolId pool = 0) {
  return OpDesc{name, std::move(reads), std::move(writes), pool};
}

// Long enough for a wrong implementation to complete what it must not; never needed to pass.
void give_a_wrong_engine_time() { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }

// The device pool's functions have returned and the ops wait for the queue alone.
bool only_the_queue_holds(const Engine& engine, std::uint64_t incomplete) {
  return eventually([&] {
    const Activity a = engine.activity();
    return a.functions_running == 0 && a.ops_startable == 0 && a.ops_incomplete == incomplete;
  });
}

TEST(DevicePool, OpsCompleteInStreamOrderAtTheirMarkers) {
  HostDeviceQueue queue;
  // One thread, so that the ops enqueue in the order they start (two would race to the queue).
  const auto engine = thread_pool_engine({dag::Pool{"device", 1}});
  DevicePool pool(*engine, 0, queue);
  std::vector<VarHandle> vars;
  Gate gates[3];
  std::vector<int> ran;  // written on the queue's thread, read after the ops completed
  for (int i = 0; i < 3; ++i) {
    vars.push_back(engine->new_var(dag::Var{"v" + std::to_string(i)}));
    pool.submit(device_op("op" + std::to_string(i), {}, {vars.back()}), [&, i] {
      queue.enqueue([&, i] {
        gates[i].wait();
        ran.push_back(i);
      });
    });
  }
  ASSERT_TRUE(only_the_queue_holds(*engine, 3));
  // The later ops' work may finish first; their markers still come after op0's.
  gates[2].open();
  gates[1].open();
  give_a_wrong_engine_time();
  for (const VarHandle v : vars) EXPECT_FALSE(engine->can_read(v));
  gates[0].open();
  engine->wait_for_all();
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2}));
}

// A rank's deadlock probe must not call it stuck while its queue has work: the engine counts the
// device ops in flight, and no others.
TEST(DevicePool, TheEngineCountsTheOpsOnTheDevice) {
  HostDeviceQueue queue;
  const auto engine = thread_pool_engine({dag::Pool{"device", 1}, dag::Pool{"cpu", 1}});
  DevicePool pool(*engine, 0, queue);
  const VarHandle a = engine->new_var(dag::Var{"a"});
  const VarHandle b = engine->new_var(dag::Var{"b"});
  Gate gate;
  pool.submit(device_op("a", {}, {a}), [&] { queue.enqueue([&] { gate.wait(); }); });
  pool.submit(device_op("b", {}, {b}), [&] { queue.enqueue([] {}); });
  ASSERT_TRUE(only_the_queue_holds(*engine, 2));
  EXPECT_EQ(engine->activity().ops_on_device, 2u);
  gate.open();
  engine->wait_for_all();
  EXPECT_EQ(engine->activity().ops_on_device, 0u);
  // A host op never counts, nor does one that completes inside its function.
  engine->submit(OpDesc{"host", {}, {a}, 1}, [] {});
  pool.submit(device_op("nothing enqueued", {}, {b}), [] {});
  engine->wait_for_all();
  // The empty op's marker may complete it before its pool thread is back from the function
  // (all_done counts completions, not returns), so the thread's return is awaited, not assumed.
  EXPECT_TRUE(eventually([&] { return engine->activity() == Activity{}; }));
  EXPECT_EQ(engine->activity().ops_on_device, 0u);
}

TEST(DevicePool, EachOpCompletesWhenTheQueueReachesItsMarker) {
  HostDeviceQueue queue;
  const auto engine = thread_pool_engine({dag::Pool{"device", 1}});
  DevicePool pool(*engine, 0, queue);
  const VarHandle a = engine->new_var(dag::Var{"a"});
  const VarHandle b = engine->new_var(dag::Var{"b"});
  Gate first;
  Gate second;
  pool.submit(device_op("a", {}, {a}), [&] { queue.enqueue([&] { first.wait(); }); });
  pool.submit(device_op("b", {}, {b}), [&] { queue.enqueue([&] { second.wait(); }); });
  ASSERT_TRUE(only_the_queue_holds(*engine, 2));
  first.open();
  EXPECT_TRUE(eventually([&] { return engine->can_read(a); }));
  give_a_wrong_engine_time();
  EXPECT_FALSE(engine->can_read(b));
  second.open();
  engine->wait_to_read(b);
}

TEST(DevicePool, DependentsWaitForTheMarkerNotForTheFunction) {
  HostDeviceQueue queue;
  const auto engine = thread_pool_engine({dag::Pool{"device", 1}, dag::Pool{"cpu", 1}});
  DevicePool pool(*engine, 0, queue);
  const VarHandle v = engine->new_var(dag::Var{"v"});
  Gate gate;
  int value = 0;  // written by the device work, read by the dependent: ordered through v
  std::atomic<bool> dependent_ran{false};
  int seen = -1;
  pool.submit(device_op("produce", {}, {v}), [&] {
    queue.enqueue([&] {
      gate.wait();
      value = 7;
    });
  });
  engine->submit(OpDesc{"consume", {v}, {}, 1}, [&] {
    seen = value;
    dependent_ran = true;
  });
  ASSERT_TRUE(only_the_queue_holds(*engine, 2));
  give_a_wrong_engine_time();
  EXPECT_FALSE(dependent_ran);
  EXPECT_FALSE(engine->can_read(v));
  gate.open();
  engine->wait_for_all();
  EXPECT_TRUE(dependent_ran);
  EXPECT_EQ(seen, 7);
}

TEST(DevicePool, OnePoolThreadKeepsManyOpsInFlight) {
  constexpr std::uint64_t ops = 200;
  HostDeviceQueue queue;
  const auto engine = thread_pool_engine({dag::Pool{"device", 1}});
  DevicePool pool(*engine, 0, queue);
  Gate gate;
  std::uint64_t done = 0;  // on the queue's thread
  for (std::uint64_t i = 0; i < ops; ++i) {
    const VarHandle v = engine->new_var(dag::Var{"v" + std::to_string(i)});
    pool.submit(device_op("op", {}, {v}), [&] {
      queue.enqueue([&] {
        gate.wait();
        ++done;
      });
    });
  }
  // Every function has run on the one thread and every op is still in flight.
  ASSERT_TRUE(only_the_queue_holds(*engine, ops));
  EXPECT_EQ(queue.markers_pending(), ops);
  gate.open();
  engine->wait_for_all();
  EXPECT_EQ(done, ops);
}

TEST(DevicePool, AFailingEnqueuePoisonsTheWritesAfterItsWorkDrained) {
  HostDeviceQueue queue;
  const auto engine = thread_pool_engine({dag::Pool{"device", 1}, dag::Pool{"cpu", 1}});
  DevicePool pool(*engine, 0, queue);
  const VarHandle v = engine->new_var(dag::Var{"v"});
  const VarHandle w = engine->new_var(dag::Var{"w"});
  Gate gate;
  bool dependent_ran = false;
  pool.submit(device_op("launch", {}, {v}), [&] {
    queue.enqueue([&] { gate.wait(); });  // what was enqueued before the failure
    throw std::runtime_error("launch failed: too many blocks");
  });
  engine->submit(OpDesc{"after", {v}, {w}, 1}, [&] { dependent_ran = true; });
  ASSERT_TRUE(only_the_queue_holds(*engine, 2));
  // The op failed in its function, yet its vars stay held until its enqueued work has run.
  give_a_wrong_engine_time();
  EXPECT_FALSE(engine->can_read(v));
  gate.open();
  // The reader of v is skipped and passes the failure on to w; surfaced there, it is cleared at
  // v too (E10).
  const std::string message = message_of<std::runtime_error>([&] { engine->wait_to_read(w); });
  EXPECT_EQ(message, "launch failed: too many blocks");
  EXPECT_FALSE(dependent_ran) << "an op reading a poisoned var is skipped";
  engine->wait_to_read(v);
}

TEST(DevicePool, FailedWorkFailsItsOwnOpOnly) {
  HostDeviceQueue queue;
  const auto engine = thread_pool_engine({dag::Pool{"device", 1}});
  DevicePool pool(*engine, 0, queue);
  const VarHandle bad = engine->new_var(dag::Var{"bad"});
  const VarHandle good = engine->new_var(dag::Var{"good"});
  bool rest_of_bad_ran = false;
  bool good_ran = false;
  pool.submit(device_op("bad", {}, {bad}), [&] {
    queue.enqueue([] { throw std::runtime_error("illegal address"); });
    queue.enqueue([&] { rest_of_bad_ran = true; });
  });
  pool.submit(device_op("good", {}, {good}), [&] { queue.enqueue([&] { good_ran = true; }); });
  EXPECT_THROW(engine->wait_to_read(bad), std::runtime_error);
  engine->wait_to_read(good);
  EXPECT_FALSE(rest_of_bad_ran) << "the failed op's later work is skipped";
  EXPECT_TRUE(good_ran);
}

TEST(DevicePool, OnAPoolOfSeveralThreadsEachFailureIsItsOwnOps) {
  constexpr int ops = 64;
  HostDeviceQueue queue;
  const auto engine = thread_pool_engine({dag::Pool{"device", 4}});
  DevicePool pool(*engine, 0, queue);
  std::vector<VarHandle> vars;
  for (int i = 0; i < ops; ++i) {
    vars.push_back(engine->new_var(dag::Var{"v" + std::to_string(i)}));
    pool.submit(device_op("op" + std::to_string(i), {}, {vars.back()}), [&queue, i] {
      queue.enqueue([] {});
      queue.enqueue([i] {
        if (i % 2 == 1) throw std::runtime_error("op " + std::to_string(i) + " failed");
      });
    });
  }
  for (std::size_t i = 0; i < vars.size(); ++i) {
    if (i % 2 == 1) {
      EXPECT_EQ(message_of<std::runtime_error>([&] { engine->wait_to_read(vars[i]); }),
                "op " + std::to_string(i) + " failed");
    } else {
      EXPECT_NO_THROW(engine->wait_to_read(vars[i])) << "op " << i;
    }
  }
}

TEST(DevicePool, ShutdownWithWorkInFlightNeitherHangsNorCrashes) {
  Gate gate;              // outlives the queue, whose thread waits on it
  HostDeviceQueue queue;  // destroyed after the engine: it reaches markers nobody waits for
  {
    ThreadPoolOptions options;
    options.shutdown_wait_ms_max = 50;
    const auto engine =
        thread_pool_engine({dag::Pool{"device", 1}, dag::Pool{"cpu", 1}}, {}, options);
    DevicePool pool(*engine, 0, queue);
    const VarHandle v = engine->new_var(dag::Var{"v"});
    const VarHandle w = engine->new_var(dag::Var{"w"});
    pool.submit(device_op("stuck", {}, {v}), [&] { queue.enqueue([&] { gate.wait(); }); });
    pool.submit(device_op("behind", {}, {w}), [&] { queue.enqueue([] {}); });
    engine->submit(OpDesc{"never", {v}, {}, 1}, [] { ADD_FAILURE() << "a discarded op ran"; });
    ASSERT_TRUE(only_the_queue_holds(*engine, 3));
    const ShutdownReport report = engine->shutdown();
    EXPECT_EQ(report.ops_discarded, 1u);
    EXPECT_EQ(report.ops_abandoned, 2u);
  }
  gate.open();  // the abandoned ops' markers now reach a stopped engine: nothing happens
}

TEST(DevicePool, AQueueDestroyedFirstCompletesItsOps) {
  const auto engine = thread_pool_engine({dag::Pool{"device", 1}});
  const VarHandle v = engine->new_var(dag::Var{"v"});
  Gate gate;
  {
    HostDeviceQueue queue;
    DevicePool pool(*engine, 0, queue);
    pool.submit(device_op("op", {}, {v}), [&] { queue.enqueue([&] { gate.wait(); }); });
    ASSERT_TRUE(only_the_queue_holds(*engine, 1));
    gate.open();
  }  // the destructor runs the work and reaches the marker before it returns
  EXPECT_TRUE(engine->can_read(v));
  engine->wait_to_read(v);
  EXPECT_EQ(engine->shutdown(), (ShutdownReport{0, 0}));
}

TEST(DevicePool, UnderTheControlledSchedulerCompletionWaitsForTheMarker) {
  HostDeviceQueue queue;
  ControlledRig rig;
  DevicePool pool(rig.engine, 0, queue);
  const VarHandle v = rig.var("v");
  Gate gate;
  const OpHandle op =
      pool.submit(device_op("op", {}, {v}), [&] { queue.enqueue([&] { gate.wait(); }); });
  rig.start(op);  // runs the function on this thread: enqueue and mark
  EXPECT_FALSE(rig.completable(op));
  gate.open();
  ASSERT_TRUE(eventually([&] { return rig.completable(op); }));
  rig.complete(op);
  EXPECT_TRUE(rig.engine.can_read(v));
}

TEST(DevicePool, RefusesOpsItCannotRun) {
  HostDeviceQueue queue;
  ControlledRig rig({dag::Pool{"device", 1}, dag::Pool{"cpu", 1}});
  DevicePool pool(rig.engine, 0, queue);
  const VarHandle v = rig.var("v");
  EXPECT_EQ(message_of<UsageError>([&] { pool.submit(device_op("x", {}, {v}, 1), [] {}); }),
            "device op 'x' names pool 1 but was submitted to the device pool 0");
  OpDesc collective_op = device_op("y", {}, {v});
  collective_op.kind = dag::OpKind::collective;
  EXPECT_NE(
      message_of<UsageError>([&] { pool.submit(collective_op, [] {}); }).find("compute or copy"),
      std::string::npos);
  EXPECT_EQ(message_of<UsageError>([&] { pool.submit(device_op("z", {}, {v}), {}); }),
            "device op 'z' submitted without a function");
}

// Only a FIFO pool the engine has can be a device pool: the checker's argument for device pools
// needs their ops to start in submission order, which a priority pool does not keep.
TEST(DevicePool, RefusesAPoolThatIsNotFifoOrNotThere) {
  HostDeviceQueue queue;
  ControlledRig rig({dag::Pool{"device", 1}, dag::Pool{"comm", 2, dag::PoolKind::priority}});
  EXPECT_EQ(message_of<UsageError>([&] { DevicePool(rig.engine, 1, queue); }),
            "pool 'comm' cannot be a device pool: it is a priority pool, and a device pool must "
            "start its ops in the order they were submitted (fifo)");
  EXPECT_EQ(message_of<UsageError>([&] { DevicePool(rig.engine, 2, queue); }),
            "pool 2 does not exist: the engine has 2 pools");
  EXPECT_NO_THROW(DevicePool(rig.engine, 0, queue));
}

}  // namespace
}  // namespace ordo::engine::testing
