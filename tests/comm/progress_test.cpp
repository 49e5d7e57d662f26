// start_then on Open MPI: the call returns once the collective is started, and the world's
// progress thread runs `done` when it ends, so a pool thread that issued an async collective op
// is free for other ops meanwhile (runtime/comm/mpi/progress.hpp).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "mpi_env.hpp"
#include "values.hpp"

namespace ordo::comm::test {
namespace {

using dag::CollectiveKind;
using dag::DType;
using dag::Reduction;

Call allreduce_call(std::uint64_t count) {
  return Call{.kind = CollectiveKind::allreduce,
              .key = 5,
              .count = count,
              .dtype = DType::i32,
              .reduction = Reduction::sum,
              .root = std::nullopt};
}

// `done` for a test: the first call fulfils the future; a second call is counted as a failure.
struct Completion {
  std::promise<std::exception_ptr> promise;
  std::atomic<int> calls{0};
  Communicator::Done callback() {
    return [this](std::exception_ptr error) {
      if (calls.fetch_add(1) == 0) promise.set_value(error);
    };
  }
};

// If start_then waited for the collective, rank 0 would wait for rank 1, which waits for rank 0's
// token: the job would hang (and the ctest timeout end it).
TEST(MpiProgress, StartThenReturnsBeforeTheCollectiveEnds) {
  constexpr std::uint64_t count = 4099;
  std::vector<std::byte> buffer = contribution(DType::i32, Reduction::sum, count, world().rank());
  Completion completion;
  if (world().rank() == 1) receive_token(0);
  world_comm().start_then(allreduce_call(count), buffer.data(), completion.callback());
  if (world().rank() == 0) send_token(1);
  std::future<std::exception_ptr> ended = completion.promise.get_future();
  ASSERT_EQ(ended.wait_for(std::chrono::seconds(60)), std::future_status::ready);
  EXPECT_EQ(ended.get(), nullptr);
  EXPECT_EQ(completion.calls.load(), 1);
  EXPECT_EQ(mismatch_report(buffer, reduced(DType::i32, Reduction::sum, count, world().size()),
                            DType::i32, "start_then allreduce"),
            "");
}

// Requests on several communicators, started from several threads, all end with their sums.
TEST(MpiProgress, ManyInFlightFromSeveralThreads) {
  constexpr std::uint32_t comms = 4;
  constexpr std::uint64_t count = 1 << 16;
  std::vector<dag::Communicator> table;
  for (std::uint32_t c = 0; c < comms; ++c) {
    table.push_back(dag::Communicator{"p" + std::to_string(c), std::nullopt});
  }
  MpiWorld local(runtime(), table);
  std::vector<std::vector<std::byte>> buffers;
  std::vector<std::unique_ptr<Completion>> completions;
  for (std::uint32_t c = 0; c < comms; ++c) {
    buffers.push_back(contribution(DType::i32, Reduction::sum, count, world().rank()));
    completions.push_back(std::make_unique<Completion>());
  }
  std::vector<std::thread> threads;
  for (std::uint32_t c = 0; c < comms; ++c) {
    threads.emplace_back([&, c] {
      local.comm(c).start_then(allreduce_call(count), buffers[c].data(),
                               completions[c]->callback());
    });
  }
  for (std::thread& t : threads) t.join();
  for (std::uint32_t c = 0; c < comms; ++c) {
    std::future<std::exception_ptr> ended = completions[c]->promise.get_future();
    ASSERT_EQ(ended.wait_for(std::chrono::seconds(60)), std::future_status::ready);
    EXPECT_EQ(ended.get(), nullptr);
    EXPECT_EQ(mismatch_report(buffers[c],
                              reduced(DType::i32, Reduction::sum, count, world().size()),
                              DType::i32, "comm " + std::to_string(c)),
              "");
  }
}

// The nonblocking design's comm thread issues an MPI_Iallreduce and returns; the main thread,
// ordered after that issue (here by the join), then blocks in MPI_Barrier on the same
// communicator while the allreduce is still outstanding: rank 1 starts late, so on rank 0 it is.
// MPI-3.1 section 5.12 allows the blocking call behind the non-blocking one when every rank
// issues them in this order (docs/semantics.md, C3), and on Open MPI both end: the barrier on
// the main thread, the allreduce through the progress thread's tests.
TEST(MpiProgress, BlockingCallWhileANonBlockingOneIsOutstanding) {
  constexpr std::uint64_t count = 1 << 14;
  std::vector<std::byte> buffer = contribution(DType::i32, Reduction::sum, count, world().rank());
  Completion completion;
  if (world().rank() == 1) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::thread comm_thread([&] {
    world_comm().start_then(allreduce_call(count), buffer.data(), completion.callback());
  });
  comm_thread.join();
  world_comm().barrier();
  std::future<std::exception_ptr> ended = completion.promise.get_future();
  ASSERT_EQ(ended.wait_for(std::chrono::seconds(60)), std::future_status::ready);
  EXPECT_EQ(ended.get(), nullptr);
  EXPECT_EQ(mismatch_report(buffer, reduced(DType::i32, Reduction::sum, count, world().size()),
                            DType::i32, "iallreduce outstanding across a barrier"),
            "");
}

// The buffer belongs to MPI until the collective ends, so a world destroyed with one in flight
// waits for it and runs its `done` first.
TEST(MpiProgress, DestroyingTheWorldWaitsForRequestsInFlight) {
  constexpr std::uint64_t count = 1 << 14;
  std::vector<std::byte> buffer = contribution(DType::i32, Reduction::sum, count, world().rank());
  Completion completion;
  {
    MpiWorld local(runtime(), {dag::Communicator{"late", std::nullopt}});
    // Rank 0 starts last, so on every other rank the request is still in flight at the close.
    if (world().rank() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    local.comm(0).start_then(allreduce_call(count), buffer.data(), completion.callback());
  }
  EXPECT_EQ(completion.calls.load(), 1);
  EXPECT_EQ(mismatch_report(buffer, reduced(DType::i32, Reduction::sum, count, world().size()),
                            DType::i32, "allreduce ended by the world's close"),
            "");
}

}  // namespace
}  // namespace ordo::comm::test
