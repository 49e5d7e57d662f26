// Non-blocking collectives: a request cannot complete before every member has started its side,
// completes with the right bytes, can be polled, can overlap others on the same communicator, and
// waits when destroyed in flight.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mpi_env.hpp"
#include "values.hpp"

namespace ordo::comm::test {
namespace {

using dag::CollectiveKind;
using dag::DType;
using dag::Reduction;

Call allreduce_call(std::uint64_t count, DType dtype, Reduction reduction) {
  return Call{.kind = CollectiveKind::allreduce,
              .key = 3,
              .count = count,
              .dtype = dtype,
              .reduction = reduction,
              .root = std::nullopt};
}

// The polling loop's explicit bound. It is generous: a slow, oversubscribed job may still be
// polling after millions of tests, and the ctest timeout may well end a stuck job first.
constexpr std::uint64_t polls_max = 1'000'000'000;

TEST(Nonblocking, AllreduceCompletesOnlyAfterEveryMemberStarted) {
  constexpr std::uint64_t count = 1023;
  const Call call = allreduce_call(count, DType::i32, Reduction::sum);
  std::vector<std::byte> buffer = contribution(DType::i32, Reduction::sum, count, world().rank());
  if (world().rank() == 1) receive_token(0);  // rank 1 starts only once rank 0 has tested
  std::unique_ptr<Request> request = world_comm().start(call, buffer.data());
  if (world().rank() == 0) {
    // Rank 1 is blocked on the token, so its contribution cannot have arrived.
    EXPECT_FALSE(request->test());
    send_token(1);
    std::uint64_t polls = 0;
    while (!request->test() && polls < polls_max) ++polls;
    EXPECT_LT(polls, polls_max) << "the request never completed";
    EXPECT_TRUE(request->test()) << "an ended request keeps testing true";
  }
  request->wait();
  request->wait();  // returns at once once ended
  EXPECT_EQ(mismatch_report(buffer, reduced(DType::i32, Reduction::sum, count, world().size()),
                            DType::i32, "iallreduce"),
            "");
}

TEST(Nonblocking, BcastFromEveryRoot) {
  constexpr std::uint64_t count = 4096;
  for (dag::Rank root = 0; root < world().size(); ++root) {
    const std::vector<std::byte> sent = contribution(DType::f16, Reduction::sum, count, root);
    std::vector<std::byte> buffer =
        world().rank() == root ? sent : std::vector<std::byte>(sent.size(), std::byte{0xA5});
    const Call call{.kind = CollectiveKind::bcast,
                    .key = 4,
                    .count = count,
                    .dtype = DType::f16,
                    .reduction = Reduction::none,
                    .root = root};
    world_comm().start(call, buffer.data())->wait();
    EXPECT_EQ(mismatch_report(buffer, sent, DType::f16, "ibcast from root " + std::to_string(root)),
              "");
  }
}

TEST(Nonblocking, SeveralInFlightOnOneCommunicatorMatchInStartOrder) {
  constexpr std::uint64_t count = 777;
  std::vector<std::byte> a = contribution(DType::f64, Reduction::min, count, world().rank());
  std::vector<std::byte> b = contribution(DType::u8, Reduction::prod, count, world().rank());
  auto first = world_comm().start(allreduce_call(count, DType::f64, Reduction::min), a.data());
  auto second = world_comm().start(allreduce_call(count, DType::u8, Reduction::prod), b.data());
  second->wait();  // completing out of start order is allowed
  first->wait();
  const std::uint32_t size = world().size();
  EXPECT_EQ(mismatch_report(a, reduced(DType::f64, Reduction::min, count, size), DType::f64, "a"),
            "");
  EXPECT_EQ(mismatch_report(b, reduced(DType::u8, Reduction::prod, count, size), DType::u8, "b"),
            "");
}

TEST(Nonblocking, RequestDestroyedInFlightWaitsForTheResult) {
  constexpr std::uint64_t count = 1u << 16;
  std::vector<std::byte> buffer = contribution(DType::bf16, Reduction::max, count, world().rank());
  // Rank 0 destroys its request while rank 1 has provably not started: the destructor must wait.
  if (world().rank() == 1) receive_token(0);
  auto request =
      world_comm().start(allreduce_call(count, DType::bf16, Reduction::max), buffer.data());
  if (world().rank() == 0) {
    EXPECT_FALSE(request->test());
    send_token(1);
  }
  request.reset();
  EXPECT_EQ(mismatch_report(buffer, reduced(DType::bf16, Reduction::max, count, world().size()),
                            DType::bf16, "destroyed iallreduce"),
            "");
}

TEST(Nonblocking, BarrierCompletesOnlyAfterEveryMemberEntered) {
  const Call call{.kind = CollectiveKind::barrier,
                  .key = 6,
                  .count = 0,
                  .dtype = DType::f32,
                  .reduction = Reduction::none,
                  .root = std::nullopt};
  if (world().rank() == 1) receive_token(0);
  std::unique_ptr<Request> request = world_comm().start(call, nullptr);
  if (world().rank() == 0) {
    EXPECT_FALSE(request->test());
    send_token(1);
  }
  request->wait();
  EXPECT_TRUE(request->test());
}

}  // namespace
}  // namespace ordo::comm::test
