// Waiting callers that run ops themselves (ThreadPoolOptions::help_waits) and poll before they
// sleep (wait_spin_us): the waits keep their meaning, a pool never runs more ops at once than it
// has threads, and ops the wait does not need are left to the workers.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

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

TEST_P(HelpTest, PushThenWaitKeepsWaitsAndPoolBounds) {
  const auto engine = thread_pool_engine(
      {dag::Pool{"copy", 1}, dag::Pool{"comm", 2}, dag::Pool{"compute", 1}}, Limits{}, GetParam());
  const VarHandle buf = engine->new_var(dag::Var{"buf"});
  const VarHandle other = engine->new_var(dag::Var{"other"});
  Occupancy copy;
  Occupancy comm;
  std::uint64_t writes = 0;  // written by ops only; the waits make it safe to read here
  for (int round = 0; round < 300; ++round) {
    engine->push({"fence", {}, {buf}, 0}, [&] {
      copy.enter();
      ++writes;
      copy.leave();
    });
    engine->wait_to_read(buf);
    ASSERT_EQ(writes, static_cast<std::uint64_t>(2 * round + 1));
    engine->push({"allreduce", {}, {buf}, 1}, [&] {
      comm.enter();
      ++writes;
      comm.leave();
    });
    engine->push({"unrelated", {}, {other}, 1}, [&] {
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
    engine->push({"blocked", {}, {gate}, 1}, [&] {
      // Run by the caller inside wait_to_read it would spin forever; report it instead.
      if (std::this_thread::get_id() == caller && !released.load()) {
        ran_on_caller = true;
        return;
      }
      while (!released.load()) std::this_thread::yield();
    });
    engine->push({"writer", {}, {v}, 0}, [] {});
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
