// The stream-ordered backend (docs/semantics.md, D1-D4): the settling rule on its own, and the
// simulated world that runs it, where a call's news reaches its issuer only when every member's
// stream has come to it.
#include <gtest/gtest.h>

#include <future>
#include <thread>
#include <vector>

#include "runtime/comm/rules/backend.hpp"
#include "runtime/comm/rules/device_streams.hpp"
#include "runtime/comm/sim/sim_world.hpp"

namespace ordo::comm {
namespace {

// Streams of `ranks` ranks; communicator c has the member list given.
class TestStreams final : public StreamSet {
 public:
  TestStreams(std::uint32_t ranks, std::vector<std::vector<dag::Rank>> members)
      : streams_(ranks), members_(std::move(members)) {}
  const DeviceStream& stream(dag::Rank rank) const override { return streams_.at(rank); }
  DeviceStream& stream_for_write(dag::Rank rank) override { return streams_.at(rank); }
  const std::vector<dag::Rank>& members(dag::CommId comm) const override {
    return members_.at(comm);
  }

 private:
  std::vector<DeviceStream> streams_;
  std::vector<std::vector<dag::Rank>> members_;
};

std::vector<std::uint64_t> tags(const std::vector<StreamDone>& done) {
  std::vector<std::uint64_t> out;
  for (const StreamDone& d : done) out.push_back(d.tag);
  return out;
}

TEST(StreamOrder, AMatchAtEveryHeadCompletesAtOnce) {
  TestStreams s(2, {{0, 1}});
  s.stream_for_write(0).launch(0, 0, 10);
  s.stream_for_write(1).launch(0, 0, 11);
  EXPECT_EQ(tags(settle_streams(s, 0, 0)), (std::vector<std::uint64_t>{10, 11}));
  EXPECT_TRUE(s.stream(0).empty());
  EXPECT_TRUE(s.stream(1).empty());
}

// Two communicators launched in opposite orders: both calls match, neither is at both heads.
TEST(StreamOrder, CrossedLaunchesOnTwoCommunicatorsNeverComplete) {
  TestStreams s(2, {{0, 1}, {0, 1}});
  s.stream_for_write(0).launch(0, 0, 1);  // rank 0: A then B
  s.stream_for_write(0).launch(1, 0, 2);
  s.stream_for_write(1).launch(1, 0, 3);  // rank 1: B then A
  s.stream_for_write(1).launch(0, 0, 4);
  EXPECT_TRUE(settle_streams(s, 0, 0).empty());
  EXPECT_TRUE(settle_streams(s, 1, 0).empty());
  EXPECT_EQ(s.stream(0).launches().size(), 2u);
  EXPECT_EQ(heads_elsewhere(s, 0, 0), (std::vector<dag::Rank>{1}));
  EXPECT_EQ(heads_elsewhere(s, 1, 0), (std::vector<dag::Rank>{0}));
}

// A call matched behind an unmatched head waits; the head's match lets both through, in order.
TEST(StreamOrder, ACompletionCascadesToCallsMatchedBehindIt) {
  TestStreams s(3, {{0, 1}, {1, 2}});
  s.stream_for_write(1).launch(0, 0, 1);  // rank 1: c0 then c1
  s.stream_for_write(1).launch(1, 0, 2);
  s.stream_for_write(2).launch(1, 0, 3);
  EXPECT_TRUE(settle_streams(s, 1, 0).empty());  // c1 matched, but rank 1's head is c0
  s.stream_for_write(0).launch(0, 0, 4);
  EXPECT_EQ(tags(settle_streams(s, 0, 0)), (std::vector<std::uint64_t>{4, 1, 2, 3}));
  for (dag::Rank r = 0; r < 3; ++r) EXPECT_TRUE(s.stream(r).empty());
}

TEST(StreamOrder, SettlingACallNotLaunchedIsALogicError) {
  TestStreams s(2, {{0, 1}});
  s.stream_for_write(0).launch(0, 0, 1);
  EXPECT_THROW(settle_streams(s, 0, 0), std::logic_error);
}

dag::Job two_ops_job(dag::OpKind kind, bool main_call, std::vector<std::string> comms) {
  dag::Job job;
  for (const std::string& c : comms) job.comms.push_back(dag::Communicator{c, std::nullopt});
  dag::Program p;
  p.pools.push_back(dag::Pool{"comm", 1, dag::PoolKind::fifo});
  for (std::size_t i = 0; i < comms.size(); ++i) {
    dag::Op op;
    op.name = "ar" + std::to_string(i);
    op.kind = kind;
    op.collective = dag::Collective{dag::CollectiveKind::barrier, static_cast<dag::CommId>(i),
                                    0, 0, dag::DType::f32, dag::Reduction::none, std::nullopt};
    p.ops.push_back(op);
  }
  if (main_call) {
    p.main.push_back(dag::CollectiveAction{
        dag::Collective{dag::CollectiveKind::barrier, 0, 0, 0, dag::DType::f32,
                        dag::Reduction::none, std::nullopt},
        std::nullopt});
  }
  job.programs.push_back(p);
  return job;
}

TEST(LaunchView, UnderNcclEveryCollectiveOpLaunches) {
  const dag::Job job = two_ops_job(dag::OpKind::collective, false, {"a"});
  EXPECT_EQ(launch_view(job, Backend::mpi), job);
  const dag::Job launched = launch_view(job, Backend::nccl);
  EXPECT_EQ(launched.programs[0].ops[0].kind, dag::OpKind::async_collective);
  EXPECT_FALSE(call_blocks(Backend::nccl, true));
  EXPECT_TRUE(call_blocks(Backend::mpi, true));
}

TEST(LaunchView, StreamsAddNothingOnlyOnOneCommunicatorWithOneKindOfIssuer) {
  const auto launched = [](const dag::Job& j) { return launch_view(j, Backend::nccl); };
  EXPECT_TRUE(streams_add_nothing(launched(two_ops_job(dag::OpKind::collective, false, {"a"}))));
  EXPECT_FALSE(
      streams_add_nothing(launched(two_ops_job(dag::OpKind::collective, false, {"a", "b"}))));
  EXPECT_FALSE(streams_add_nothing(launched(two_ops_job(dag::OpKind::collective, true, {"a"}))));
  // Not a launch view: a blocking op is still there.
  EXPECT_FALSE(streams_add_nothing(two_ops_job(dag::OpKind::collective, false, {"a"})));
}

TEST(BackendNames, RoundTrip) {
  for (Backend b : {Backend::mpi, Backend::nccl}) EXPECT_EQ(parse_backend(to_string(b)), b);
  EXPECT_FALSE(parse_backend("gloo"));
}

// The simulated world under NCCL: crossed barriers on two communicators, each issued without
// blocking the rank's thread, match but never complete; the watchdog's check names the streams.
TEST(SimWorldStreams, CrossedLaunchesDeadlockAndTheReportNamesTheStreams) {
  sim::SimWorld world(2, {{"a", std::nullopt}, {"b", std::nullopt}}, Backend::nccl);
  std::vector<std::promise<std::exception_ptr>> ends(4);
  const auto launch = [&](dag::Rank r, dag::CommId c, std::size_t end) {
    world.rank(r).comm(c).start_then(Call{dag::CollectiveKind::barrier, 0, 0, dag::DType::f32,
                                          dag::Reduction::none, std::nullopt},
                                     nullptr, [&ends, end](std::exception_ptr e) {
                                       ends[end].set_value(e);
                                     });
  };
  launch(0, 0, 0);
  launch(0, 1, 1);
  launch(1, 1, 2);
  launch(1, 0, 3);
  EXPECT_FALSE(world.violation());
  for (dag::Rank r = 0; r < 2; ++r) {
    world.set_probe(r, [] { return sim::RankActivity{true, false, {}}; });
  }
  const std::optional<Deadlock> d = world.check_deadlock();
  ASSERT_TRUE(d);
  bool names_stream = false;
  for (const std::string& w : wait_lines(*d)) {
    names_stream |= w.find("stream") != std::string::npos;
  }
  EXPECT_TRUE(names_stream);
  for (auto& e : ends) EXPECT_TRUE(e.get_future().get() != nullptr);  // every call failed
}

// The same launches in one order on both ranks complete, and a blocking call's news waits for
// the stream: the second barrier's caller returns only after the first has completed.
TEST(SimWorldStreams, OneOrderCompletesInLaunchOrder) {
  sim::SimWorld world(2, {{"a", std::nullopt}, {"b", std::nullopt}}, Backend::nccl);
  std::vector<int> order;
  std::mutex m;
  std::vector<std::thread> ranks;
  for (dag::Rank r = 0; r < 2; ++r) {
    ranks.emplace_back([&, r] {
      for (dag::CommId c : {0u, 1u}) {
        world.rank(r).comm(c).barrier(0);
        std::lock_guard lock(m);
        order.push_back(static_cast<int>(c));
      }
    });
  }
  for (std::thread& t : ranks) t.join();
  EXPECT_FALSE(world.violation());
  EXPECT_EQ(order, (std::vector<int>{0, 0, 1, 1}));
}

// A blocking call against a non-blocking one at one position is a mismatch on MPI (C2) and not
// on NCCL, which has no blocking form.
TEST(SimWorldStreams, BlockingAgainstNonBlockingMatchesUnderNccl) {
  for (Backend b : {Backend::mpi, Backend::nccl}) {
    sim::SimWorld world(2, {{"a", std::nullopt}}, b);
    std::promise<std::exception_ptr> started;
    const Call barrier{dag::CollectiveKind::barrier, 0, 0, dag::DType::f32, dag::Reduction::none,
                       std::nullopt};
    world.rank(0).comm(0).start_then(barrier, nullptr,
                                     [&](std::exception_ptr e) { started.set_value(e); });
    std::exception_ptr blocking;
    try {
      world.rank(1).comm(0).call(barrier, nullptr);
    } catch (...) {
      blocking = std::current_exception();
    }
    EXPECT_EQ(world.violation().has_value(), b == Backend::mpi) << to_string(b);
    EXPECT_EQ(blocking != nullptr, b == Backend::mpi) << to_string(b);
    started.get_future().get();
  }
}

}  // namespace
}  // namespace ordo::comm
