// Failures raised on worker threads surface on the callers' threads.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>

#include "tests/engine/controlled_rig.hpp"
#include "tests/engine/thread_pool_rig.hpp"

namespace ordo::engine::testing {
namespace {

TEST(ThreadPoolException, FailureOnAWorkerSurfacesAtWaitToRead) {
  const auto engine = thread_pool_engine({dag::Pool{"cpu", 2}});
  const VarHandle v = engine->new_var(dag::Var{"v"});
  engine->submit(OpDesc{"bad", {}, {v}}, [] { throw std::runtime_error("worker failed"); });
  EXPECT_EQ(message_of<std::runtime_error>([&] { engine->wait_to_read(v); }), "worker failed");
  EXPECT_NO_THROW(engine->wait_for_all());
}

TEST(ThreadPoolException, ChainStopsRunningAtTheFirstFailure) {
  constexpr int ops = 1'000;
  constexpr int failing = 300;
  const auto engine = thread_pool_engine({dag::Pool{"a", 2}, dag::Pool{"b", 2}});
  const VarHandle v = engine->new_var(dag::Var{"v"});
  int ran = 0;  // protected by the write chain on v
  for (int i = 0; i < ops; ++i) {
    engine->submit(OpDesc{"step", {}, {v}, static_cast<dag::PoolId>(i % 2)}, [&ran, i] {
      ++ran;
      if (i == failing) throw std::runtime_error("step " + std::to_string(i));
    });
  }
  EXPECT_EQ(message_of<std::runtime_error>([&] { engine->wait_for_all(); }), "step 300");
  EXPECT_EQ(ran, failing + 1);
  EXPECT_NO_THROW(engine->wait_for_all());
  EXPECT_NO_THROW(engine->wait_to_read(v));  // wait_for_all cleared the poison
}

TEST(ThreadPoolException, IndependentFailuresSurfaceAtTheirOwnVars) {
  constexpr int vars = 16;
  const auto engine = thread_pool_engine({dag::Pool{"a", 2}, dag::Pool{"b", 2}});
  std::vector<VarHandle> handles;
  for (int i = 0; i < vars; ++i) {
    handles.push_back(engine->new_var(dag::Var{"v"}));
    engine->submit(OpDesc{"bad", {}, {handles.back()}, static_cast<dag::PoolId>(i % 2)},
                 [i] { throw std::runtime_error(std::to_string(i)); });
  }
  for (int i = 0; i < vars; ++i) {
    EXPECT_EQ(message_of<std::runtime_error>(
                  [&] { engine->wait_to_read(handles[static_cast<std::size_t>(i)]); }),
              std::to_string(i));
  }
  EXPECT_NO_THROW(engine->wait_for_all());
}

}  // namespace
}  // namespace ordo::engine::testing
