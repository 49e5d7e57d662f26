// Async ops on the production pool, completed from threads the engine does not own.
#include <gtest/gtest.h>

#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <thread>

#include "runtime/engine/errors.hpp"
#include "tests/engine/controlled_rig.hpp"
#include "tests/engine/thread_pool_rig.hpp"

namespace ordo::engine::testing {
namespace {

OpDesc async_desc(std::vector<VarHandle> writes, dag::PoolId pool = 0) {
  OpDesc op{"allreduce", {}, std::move(writes), pool};
  op.kind = dag::OpKind::async_collective;
  op.collective = collective(dag::CollectiveKind::allreduce, 0, 0, 1);
  return op;
}

// A thread that invokes completion handles in the order it receives them, standing in for a
// communication library's progress thread. `work` runs before each handle fires.
class Completer {
 public:
  explicit Completer(std::function<void()> work)
      : work_(std::move(work)), thread_([this] { loop(); }) {}
  Completer(const Completer&) = delete;
  Completer& operator=(const Completer&) = delete;
  ~Completer() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

  void submit(AsyncDone done) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(std::move(done));
    }
    wake_.notify_one();
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return closed_ || !queue_.empty(); });
      if (queue_.empty()) return;
      const AsyncDone done = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      work_();
      done();
      lock.lock();
    }
  }

  std::function<void()> work_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<AsyncDone> queue_;
  bool closed_ = false;
  std::thread thread_;
};

TEST(ThreadPoolAsync, CompletionsFromAForeignThreadKeepTheWriteChainOrdered) {
  constexpr int ops = 5'000;
  const auto engine = thread_pool_engine({dag::Pool{"comm", 2}, dag::Pool{"cpu", 2}});
  engine->declare_comm(dag::Communicator{"world", std::nullopt});
  const VarHandle v = engine->new_var(dag::Var{"v"});
  int counter = 0;  // written by the completer inside each op's flight, ordered by the chain on v
  int checked = 0;
  {
    Completer completer([&counter] { ++counter; });
    for (int i = 0; i < ops; ++i) {
      engine->submit_async(async_desc({v}),
                         [&completer](AsyncDone done) { completer.submit(std::move(done)); });
      if (i % 100 == 0) {
        engine->submit(OpDesc{"check", {v}, {}, 1},
                     [&counter, &checked, i] { checked += counter == i + 1 ? 1 : 0; });
      }
    }
    engine->wait_for_all();
  }
  EXPECT_EQ(counter, ops);
  EXPECT_EQ(checked, ops / 100);
}

TEST(ThreadPoolAsync, OpInFlightLeavesItsThreadToOthers) {
  const auto engine = thread_pool_engine({dag::Pool{"only", 1}});
  engine->declare_comm(dag::Communicator{"world", std::nullopt});
  const VarHandle a = engine->new_var(dag::Var{"a"});
  const VarHandle b = engine->new_var(dag::Var{"b"});
  std::promise<AsyncDone> handle;
  engine->submit_async(async_desc({a}), [&handle](AsyncDone done) { handle.set_value(done); });
  int value = 0;
  engine->submit(OpDesc{"other", {}, {b}}, [&value] { value = 42; });
  engine->wait_to_read(b);  // would never return if the in-flight op held the only thread
  EXPECT_EQ(value, 42);
  EXPECT_FALSE(engine->can_read(a));
  handle.get_future().get()();
  engine->wait_to_read(a);
  EXPECT_TRUE(engine->all_done());
}

// An async op completed from inside its function retires only when the function returns; a
// submission blocked at the bound must be woken by that retirement, not only by completions.
TEST(ThreadPoolAsync, SubmitBlockedAtTheBoundResumesWhenAsyncOpsRetire) {
  constexpr int ops = 2'000;
  const auto engine = thread_pool_engine({dag::Pool{"comm", 2}}, Limits{2});
  engine->declare_comm(dag::Communicator{"world", std::nullopt});
  const VarHandle v = engine->new_var(dag::Var{"v"});
  int completed = 0;  // ordered by the write chain on v
  for (int i = 0; i < ops; ++i) {
    engine->submit_async(async_desc({v}), [&completed](const AsyncDone& done) {
      ++completed;
      done();
    });
  }
  engine->wait_for_all();
  EXPECT_EQ(completed, ops);
}

TEST(ThreadPoolAsync, DroppedHandleOnAWorkerFailsTheOp) {
  const auto engine = thread_pool_engine({dag::Pool{"comm", 1}});
  engine->declare_comm(dag::Communicator{"world", std::nullopt});
  const VarHandle v = engine->new_var(dag::Var{"v"});
  engine->submit_async(async_desc({v}), [](const AsyncDone&) {});
  EXPECT_THROW(engine->wait_to_read(v), AsyncHandleDropped);
}

}  // namespace
}  // namespace ordo::engine::testing
