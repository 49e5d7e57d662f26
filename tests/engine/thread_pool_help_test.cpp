// Waiting callers that run ops themselves (ThreadPoolOptions::help_waits) and poll before they
// sleep (wait_spin_us): the waits keep their meaning, a pool never runs more ops at once than it
// has threads, and ops the wait does not need are left to the workers.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "runtime/engine/submit_batch.hpp"
#include "tests/common/eventually.hpp"
#include "tests/engine/thread_pool_rig.hpp"

namespace ordo::engine {
namespace {

using testing::thread_pool_engine;

// Counts the ops of one pool running at once and remembers the most seen.
class Occupancy {
 public:
  void enter() {
    const std::uint32_t now = running_.fetch_add(1) + 1;
    std::uint32_t seen = most_.load();
    while (now > seen && !most_.compare_exchange_weak(seen, now)) {
    }
  }
  void leave() { running_.fetch_sub(1); }
  std::uint32_t most() const { return most_.load(); }

 private:
  std::atomic<std::uint32_t> running_{0};
  std::atomic<std::uint32_t> most_{0};
};

ThreadPoolOptions options(bool help, std::uint32_t spin_us) {
  ThreadPoolOptions o;
  o.help_waits = help;
  o.wait_spin_us = spin_us;
  return o;
}

class HelpTest : public ::testing::TestWithParam<ThreadPoolOptions> {};

TEST_P(HelpTest, SubmitThenWaitKeepsWaitsAndPoolBounds) {
  const auto engine = thread_pool_engine(
      {dag::Pool{"copy", 1}, dag::Pool{"comm", 2}, dag::Pool{"compute", 1}}, Limits{}, GetParam());
  const VarHandle buf = engine->new_var(dag::Var{"buf"});
  const VarHandle other = engine->new_var(dag::Var{"other"});
  Occupancy copy;
  Occupancy comm;
  std::uint64_t writes = 0;  // written by ops only; the waits make it safe to read here
  for (int round = 0; round < 300; ++round) {
    engine->submit({"fence", {}, {buf}, 0}, [&] {
      copy.enter();
      ++writes;
      copy.leave();
    });
    engine->wait_to_read(buf);
    ASSERT_EQ(writes, static_cast<std::uint64_t>(2 * round + 1));
    engine->submit({"allreduce", {}, {buf}, 1}, [&] {
      comm.enter();
      ++writes;
      comm.leave();
    });
    engine->submit({"unrelated", {}, {other}, 1}, [&] {
      comm.enter();
      comm.leave();
    });
    engine->wait_for_all();
    ASSERT_EQ(writes, static_cast<std::uint64_t>(2 * round + 2));
  }
  EXPECT_LE(copy.most(), 1u);
  EXPECT_LE(comm.most(), 2u);
}

// A wait_to_read must not run an op that does not write its var: that op may block on
// something the caller does only after the wait.
TEST_P(HelpTest, WaitToReadLeavesOpsItDoesNotNeed) {
  const auto engine =
      thread_pool_engine({dag::Pool{"a", 1}, dag::Pool{"b", 1}}, Limits{}, GetParam());
  const VarHandle v = engine->new_var(dag::Var{"v"});
  const VarHandle gate = engine->new_var(dag::Var{"gate"});
  for (int round = 0; round < 50; ++round) {
    std::atomic<bool> released{false};
    const std::thread::id caller = std::this_thread::get_id();
    std::atomic<bool> ran_on_caller{false};
    engine->submit({"blocked", {}, {gate}, 1}, [&] {
      // Run by the caller inside wait_to_read it would spin forever; report it instead.
      if (std::this_thread::get_id() == caller && !released.load()) {
        ran_on_caller = true;
        return;
      }
      while (!released.load()) std::this_thread::yield();
    });
    engine->submit({"writer", {}, {v}, 0}, [] {});
    engine->wait_to_read(v);
    released = true;
    engine->wait_for_all();
    ASSERT_FALSE(ran_on_caller.load());
  }
}

INSTANTIATE_TEST_SUITE_P(Options, HelpTest,
                         ::testing::Values(options(true, 0), options(true, 50),
                                           options(false, 50)));

}  // namespace
}  // namespace ordo::engine

namespace ordo::engine {
namespace {

// A wait that helps runs the op on the waiting thread, and that op may not return until another
// op runs (on Open MPI, a blocking collective waits for a rank that first needs another op of
// this batch). So before the helped op runs, the batch's other deferred ops go to the workers;
// otherwise their wake-up waits for this thread's next wait, which never comes. The helped op
// here waits for an op of another pool (a regression hangs until ctest's TIMEOUT ends the test).
TEST(HelpedWait, HandsTheBatchsOtherOpsToTheWorkersBeforeRunningOne) {
  const auto engine = thread_pool_engine({dag::Pool{"first", 1}, dag::Pool{"second", 1}}, Limits{},
                                         options(true, 0));
  const VarHandle a = engine->new_var(dag::Var{"a"});
  const VarHandle b = engine->new_var(dag::Var{"b"});
  for (int round = 0; round < 50; ++round) {
    // Give the workers time to fall asleep, so that the batch has wake-ups to defer.
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    std::atomic<bool> b_ran{false};
    bool a_saw_b = false;
    {
      SubmitBatch batch(*engine);
      engine->submit({"b", {}, {b}, 1}, [&] { b_ran.store(true); });
      engine->submit({"a", {}, {a}, 0},
                     [&] { a_saw_b = ordo::testing::eventually([&] { return b_ran.load(); }); });
      engine->wait_to_read(a);
      engine->wait_for_all();
    }
    ASSERT_TRUE(a_saw_b) << "round " << round << ": the op run by the wait never saw the op the "
                         << "batch should have handed to a worker";
  }
}

}  // namespace
}  // namespace ordo::engine
