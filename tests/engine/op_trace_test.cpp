// The engine's hook for a timeline (op_trace.hpp): every op function's run is told to the trace
// on the thread that runs it, begin before end, with its pool and thread; a wait that blocks is
// told too, and one that does not block is not; an engine without a trace runs as before.
#include "runtime/engine/op_trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/common/eventually.hpp"
#include "tests/engine/thread_pool_rig.hpp"

namespace ordo::engine {
namespace {

using testing::thread_pool_engine;

class ListTrace final : public OpTrace {
 public:
  std::int64_t op_begin(const OpDesc& desc, const std::string& pool_name,
                        std::uint32_t thread) override {
    const std::lock_guard lock(mutex_);
    log.push_back("begin " + desc.name + " " + pool_name + " " + std::to_string(thread));
    return static_cast<std::int64_t>(log.size() - 1);
  }
  void op_end(std::int64_t token) override {
    const std::lock_guard lock(mutex_);
    log.push_back("end " + std::to_string(token));
  }
  std::int64_t wait_begin(std::string_view what, std::string_view var) override {
    const std::lock_guard lock(mutex_);
    log.push_back(std::string(what) + " " + std::string(var));
    return static_cast<std::int64_t>(log.size() - 1);
  }
  void wait_end(std::int64_t token) override {
    const std::lock_guard lock(mutex_);
    log.push_back("wait end " + std::to_string(token));
  }
  std::vector<std::string> entries() {
    const std::lock_guard lock(mutex_);
    return log;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> log;
};

TEST(OpTrace, OpsAndBlockingWaitsAreToldInOrder) {
  ListTrace trace;
  auto engine = thread_pool_engine({{"compute", 1}});
  engine->set_trace(&trace);
  const VarHandle v = engine->new_var(dag::Var{"v"});
  engine->wait_to_read(v);  // nothing to wait for: not told
  std::atomic<bool> go{false};
  engine->submit({"slow", {}, {v}, 0}, [&] {
    while (!go.load()) std::this_thread::yield();
  });
  // The op ends only once the wait has been told, however late the main thread gets there: a
  // wait that finds its var ready does not block and is not told.
  std::thread release([&] {
    ordo::testing::eventually([&] {
      const std::vector<std::string> told = trace.entries();
      return std::find(told.begin(), told.end(), "wait_to_read v") != told.end();
    });
    go = true;
  });
  engine->wait_to_read(v);
  release.join();
  engine->set_trace(nullptr);
  engine->submit({"untraced", {}, {v}, 0}, [] {});
  engine->wait_for_all();
  const std::vector<std::string> log = trace.entries();
  ASSERT_EQ(log.size(), 4u);
  // The wait began before the op ended; the op's begin and end pair by token.
  EXPECT_EQ(log[0] + "|" + log[1], log[0].rfind("begin", 0) == 0
                                       ? "begin slow compute 0|wait_to_read v"
                                       : "wait_to_read v|begin slow compute 0");
  const std::size_t begin = log[0].rfind("begin", 0) == 0 ? 0 : 1;
  EXPECT_EQ(log[2], "end " + std::to_string(begin));
  EXPECT_EQ(log[3], "wait end " + std::to_string(1 - begin));
}

}  // namespace
}  // namespace ordo::engine
