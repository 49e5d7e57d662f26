// The simulated world on its own: matching, data movement, and each violation it reports.
#include "runtime/comm/sim/sim_world.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "runtime/comm/sim/issuer.hpp"

namespace ordo::comm::sim {
namespace {

Call allreduce_call(std::int64_t key, std::uint64_t count) {
  return Call{dag::CollectiveKind::allreduce,
              key,
              count,
              dag::DType::f32,
              dag::Reduction::sum,
              std::nullopt};
}

// Runs `body(rank)` on one thread per rank and joins them.
template <class Body>
void on_every_rank(std::uint32_t ranks, Body body) {
  std::vector<std::thread> threads;
  for (dag::Rank r = 0; r < ranks; ++r) threads.emplace_back([&body, r] { body(r); });
  for (std::thread& t : threads) t.join();
}

class SimWorldRanks : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(SimWorldRanks, AllreduceSumsInRankOrderOnEveryRank) {
  const std::uint32_t ranks = GetParam();
  SimWorld world(ranks, {{"world", std::nullopt}});
  std::vector<std::vector<float>> data(ranks);
  on_every_rank(ranks, [&](dag::Rank r) {
    data[r] = {static_cast<float>(r + 1), 0.5f * static_cast<float>(r), -1.0f};
    world.rank(r).comm(0).allreduce(data[r].data(), 3, dag::DType::f32, dag::Reduction::sum, 7);
  });
  const auto n = static_cast<float>(ranks);
  for (const auto& d : data) {
    EXPECT_EQ(d, (std::vector<float>{n * (n + 1) / 2, 0.25f * n * (n - 1), -n}));
  }
  EXPECT_FALSE(world.violation());
}

TEST_P(SimWorldRanks, BcastCopiesTheRootsBufferFromEveryRoot) {
  const std::uint32_t ranks = GetParam();
  SimWorld world(ranks, {{"world", std::nullopt}});
  for (dag::Rank root = 0; root < ranks; ++root) {
    std::vector<std::int32_t> data(ranks);
    on_every_rank(ranks, [&](dag::Rank r) {
      data[r] = static_cast<std::int32_t>(100 + r);
      world.rank(r).comm(0).bcast(&data[r], 1, dag::DType::i32, root, 0);
    });
    for (std::int32_t v : data) EXPECT_EQ(v, static_cast<std::int32_t>(100 + root));
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, SimWorldRanks, ::testing::Values(1u, 2u, 3u, 5u, 8u));

TEST(SimWorld, SubCommunicatorRanksFollowTheMemberList) {
  SimWorld world(3, {{"c21", std::vector<dag::Rank>{2, 1}}});
  EXPECT_FALSE(world.rank(0).is_member(0));
  EXPECT_THROW(world.rank(0).comm(0), std::logic_error);
  EXPECT_EQ(world.rank(2).comm(0).rank(), 0u);
  EXPECT_EQ(world.rank(1).comm(0).rank(), 1u);
  EXPECT_THROW(world.rank(1).comm(1), std::out_of_range);
}

TEST(SimWorld, RejectsBadMemberLists) {
  EXPECT_THROW(SimWorld(2, {{"c", std::vector<dag::Rank>{0, 2}}}), std::invalid_argument);
  EXPECT_THROW(SimWorld(2, {{"c", std::vector<dag::Rank>{1, 1}}}), std::invalid_argument);
  EXPECT_THROW(SimWorld(2, {{"c", std::vector<dag::Rank>{}}}), std::invalid_argument);
  EXPECT_THROW(SimWorld(0, {}), std::invalid_argument);
}

TEST(SimWorld, MismatchedKeysAreReportedWithBothCalls) {
  SimWorld world(2, {{"world", std::nullopt}});
  std::vector<float> a(4), b(4);
  std::exception_ptr first_error;
  world.rank(0).comm(0).call_then(allreduce_call(1, 4), a.data(),
                                  [&](std::exception_ptr e) { first_error = e; });
  const IssuerScope issuer("op 'allreduce.k2'");
  EXPECT_THROW(world.rank(1).comm(0).call(allreduce_call(2, 4), b.data()), ViolationError);
  ASSERT_TRUE(first_error);
  const std::optional<Violation> v = world.violation();
  ASSERT_TRUE(v);
  const auto& m = std::get<Mismatch>(*v);
  EXPECT_EQ(m.comm_name, "world");
  EXPECT_EQ(m.seq, 0u);
  ASSERT_EQ(m.calls.size(), 2u);
  EXPECT_EQ(m.calls[0].call.key, 1);
  EXPECT_EQ(m.calls[1].call.key, 2);
  EXPECT_EQ(m.calls[1].issuer, (Issuer{1, "op 'allreduce.k2'"}));
  EXPECT_NE(describe(*v).find("mismatch on communicator 'world' at call 0"), std::string::npos);
  // The world stays aborted: later calls fail instead of matching.
  EXPECT_THROW(world.rank(0).comm(0).barrier(), ViolationError);
}

TEST(SimWorld, MismatchedCountsAreReported) {
  SimWorld world(2, {{"world", std::nullopt}});
  std::vector<float> a(8);
  world.rank(0).comm(0).call_then(allreduce_call(1, 4), a.data(), [](std::exception_ptr) {});
  world.rank(1).comm(0).call_then(allreduce_call(1, 8), a.data(), [](std::exception_ptr) {});
  ASSERT_TRUE(world.violation());
  EXPECT_EQ(kind_name(*world.violation()), "P1 mismatch");
}

TEST(SimWorld, SecondBlockingCallOnOneCommunicatorBreaksTheThreadRule) {
  SimWorld world(2, {{"world", std::nullopt}});
  std::vector<float> a(4), b(4);
  int errors = 0;
  auto count = [&](std::exception_ptr e) { errors += e ? 1 : 0; };
  world.rank(0).comm(0).call_then(allreduce_call(1, 4), a.data(), count);
  world.rank(0).comm(0).call_then(allreduce_call(2, 4), b.data(), count);
  const std::optional<Violation> v = world.violation();
  ASSERT_TRUE(v);
  const auto& t = std::get<ThreadRuleBreak>(*v);
  EXPECT_EQ(t.in_flight.call.key, 1);
  EXPECT_EQ(t.second.call.key, 2);
  EXPECT_EQ(errors, 2);
}

TEST(SimWorld, NonBlockingCallsMayOverlapOnOneCommunicator) {
  SimWorld world(2, {{"world", std::nullopt}});
  std::vector<float> a0(1, 1.0f), b0(1, 2.0f), a1(1, 3.0f), b1(1, 4.0f);
  auto r0a = world.rank(0).comm(0).start(allreduce_call(1, 1), a0.data());
  auto r0b = world.rank(0).comm(0).start(allreduce_call(2, 1), b0.data());
  EXPECT_FALSE(r0a->test());
  auto r1a = world.rank(1).comm(0).start(allreduce_call(1, 1), a1.data());
  auto r1b = world.rank(1).comm(0).start(allreduce_call(2, 1), b1.data());
  r0a->wait();
  r0b->wait();
  r1a->wait();
  r1b->wait();
  EXPECT_FALSE(world.violation());
  EXPECT_EQ(a0[0], 4.0f);
  EXPECT_EQ(b1[0], 6.0f);
}

// MPI-3.1 section 5.12 lets a blocking collective be posted while a non-blocking one is
// outstanding; a non-blocking call has returned once issued, so what follows it is ordered
// (docs/semantics.md, C3). Every rank issues key 1 then key 2, and both sums arrive.
TEST(SimWorld, BlockingCallMayFollowANonBlockingOneInFlight) {
  SimWorld world(2, {{"world", std::nullopt}});
  std::vector<float> a0(1, 1.0f), b0(1, 2.0f), a1(1, 3.0f), b1(1, 4.0f);
  int done = 0;
  auto count = [&](std::exception_ptr e) { done += e ? 0 : 1; };
  auto r0 = world.rank(0).comm(0).start(allreduce_call(1, 1), a0.data());
  world.rank(0).comm(0).call_then(allreduce_call(2, 1), b0.data(), count);
  auto r1 = world.rank(1).comm(0).start(allreduce_call(1, 1), a1.data());
  world.rank(1).comm(0).call_then(allreduce_call(2, 1), b1.data(), count);
  r0->wait();
  r1->wait();
  EXPECT_FALSE(world.violation());
  EXPECT_EQ(done, 2);
  EXPECT_EQ(a0[0], 4.0f);
  EXPECT_EQ(b1[0], 6.0f);
}

// The other way round is still a break: the blocking call's issuer is inside it until it matches,
// so nothing can have ordered a second call after it.
TEST(SimWorld, NonBlockingCallAfterABlockingOneInFlightBreaksTheThreadRule) {
  SimWorld world(2, {{"world", std::nullopt}});
  std::vector<float> a(4), b(4);
  world.rank(0).comm(0).call_then(allreduce_call(1, 4), a.data(), [](std::exception_ptr) {});
  EXPECT_THROW(world.rank(0).comm(0).start(allreduce_call(2, 4), b.data())->wait(), std::exception);
  const std::optional<Violation> v = world.violation();
  ASSERT_TRUE(v);
  const auto& t = std::get<ThreadRuleBreak>(*v);
  EXPECT_TRUE(t.in_flight.blocking);
  EXPECT_FALSE(t.second.blocking);
}

// What a probe says its main thread does.
MainWait main_doing(std::string doing, bool in_call = false) {
  MainWait m;
  m.doing = std::move(doing);
  m.in_call = in_call;
  return m;
}

TEST(SimWorld, DeadlockNeedsEveryRankQuiescentAndReportsPendingCalls) {
  SimWorld world(2, {{"world", std::nullopt}});
  std::vector<float> a(1);
  world.rank(0).comm(0).call_then(allreduce_call(5, 1), a.data(), [](std::exception_ptr) {});
  std::atomic<bool> rank1_busy{true};
  world.set_probe(0, [] {
    return RankActivity{true, false, main_doing("main: wait to read 'buf'")};
  });
  EXPECT_FALSE(world.check_deadlock());  // rank 1 has no probe yet: no verdict
  world.set_probe(1, [&] { return RankActivity{!rank1_busy.load(), true, {}}; });
  EXPECT_FALSE(world.check_deadlock());  // rank 1 still runs something
  rank1_busy = false;
  const std::optional<Deadlock> d = world.check_deadlock();
  ASSERT_TRUE(d);
  const std::string report = describe(Violation{*d});
  EXPECT_NE(report.find("rank 0 main: wait to read 'buf'"), std::string::npos) << report;
  EXPECT_EQ(d->ranks_blocked, std::vector<dag::Rank>{0});  // rank 1 finished
  ASSERT_EQ(d->calls.size(), 1u);
  EXPECT_EQ(d->calls[0].waiting_for, std::vector<dag::Rank>{1});
  EXPECT_NE(report.find("waiting for rank(s) 1"), std::string::npos) << report;
  EXPECT_TRUE(world.aborted());
}

TEST(SimWorld, AllRanksFinishedWithNothingPendingIsNoDeadlock) {
  SimWorld world(2, {{"world", std::nullopt}});
  world.set_probe(0, [] { return RankActivity{true, true, {}}; });
  world.set_probe(1, [] { return RankActivity{true, true, {}}; });
  EXPECT_FALSE(world.check_deadlock());
  EXPECT_FALSE(world.aborted());
}

TEST(SimWorld, WatchdogAbortsAHungBlockingCall) {
  SimWorld world(2, {{"world", std::nullopt}});
  std::atomic<bool> calling{false};
  world.set_probe(0, [&] {
    return RankActivity{calling.load(), false, main_doing("main: in allreduce", true)};
  });
  world.set_probe(1, [] { return RankActivity{true, true, {}}; });
  std::vector<float> a(1);
  std::promise<std::exception_ptr> outcome;
  world.rank(0).comm(0).call_then(allreduce_call(1, 1), a.data(),
                                  [&](std::exception_ptr e) { outcome.set_value(e); });
  calling = true;
  world.start_watchdog(std::chrono::milliseconds(5));
  // Rank 1 never calls: the watchdog must end the wait with a deadlock report.
  EXPECT_TRUE(outcome.get_future().get());
  ASSERT_TRUE(world.violation());
  EXPECT_EQ(kind_name(*world.violation()), "deadlock");
}

}  // namespace
}  // namespace ordo::comm::sim
