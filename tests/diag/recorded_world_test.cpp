// The recorder's hook: every call through a RecordedWorld lands in its communicator's ring, with
// its issuer, and its end is recorded however the backend completes it.
#include "runtime/flight/recorded_world.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "runtime/comm/sim/issuer.hpp"
#include "runtime/diag/flight_recorder.hpp"
#include "tests/diag/dumps.hpp"
#include "tests/diag/fake_world.hpp"

namespace ordo::diag {
namespace {

using testing::FakeWorld;

const std::vector<dag::Communicator>& comms = testing::fake_comms;

TEST(RecordedWorld, EveryPathRecordsItsCallAndItsEnd) {
  FakeWorld inner;
  FlightRecorder recorder(inner, comms, 8);
  flight::RecordedWorld world(inner, recorder.rings());
  float buffer[4] = {};
  {
    const comm::sim::IssuerScope issuer("main");
    world.comm(0).call(testing::allreduce(1), buffer);
  }
  inner.a.fail_key = 2;
  EXPECT_THROW(world.comm(0).call(testing::allreduce(2), buffer), std::runtime_error);
  int ended = 0;
  world.comm(0).call_then(testing::allreduce(3), buffer, [&](std::exception_ptr) { ++ended; });
  world.comm(1).start(testing::allreduce(4), buffer)->wait();
  world.comm(1).start_then(testing::allreduce(5), buffer, [&](std::exception_ptr) { ++ended; });
  EXPECT_EQ(ended, 1);

  const RankDump open = recorder.dump("request", "test", 1.0);
  ASSERT_EQ(open.comms.size(), 2u);
  const DumpComm& a = open.comms[0];
  ASSERT_EQ(a.calls.size(), 3u);
  EXPECT_EQ(a.calls[0].issuer, "main");
  EXPECT_EQ(a.calls[0].state, "completed");
  EXPECT_EQ(a.calls[1].state, "failed");
  EXPECT_EQ(a.calls[2].call.key, 3);
  EXPECT_TRUE(a.calls[2].blocking);
  const DumpComm& b = open.comms[1];
  ASSERT_EQ(b.calls.size(), 2u);
  EXPECT_EQ(b.calls[0].state, "completed");
  EXPECT_FALSE(b.calls[0].blocking);
  EXPECT_EQ(b.calls[1].state, "in_flight");  // its backend has not completed it yet
  ASSERT_TRUE(recorder.waits().call.has_value());
  EXPECT_NE(recorder.waits().call->what.find("key 5, seq 1"), std::string::npos);

  inner.b.held(nullptr);  // the backend completes it: the parked callback runs
  EXPECT_EQ(ended, 2);
  EXPECT_EQ(recorder.dump("request", "test", 1.0).comms[1].calls[1].state, "completed");
  EXPECT_FALSE(recorder.waits().call.has_value());
}

TEST(RecordedWorld, RejectsAWrongRingCount) {
  FakeWorld inner;
  EXPECT_THROW(flight::RecordedWorld(inner, {}), std::invalid_argument);
  EXPECT_THROW(FlightRecorder(inner, comms, 0), std::invalid_argument);
}

// A send or recv lands in its communicator's ring of messages, numbered in its stream, and the
// collective ring's seqs stay the communicator's collective order.
TEST(RecordedWorld, MessagesGoToTheirOwnRing) {
  FakeWorld inner;
  FlightRecorder recorder(inner, comms, 8);
  flight::RecordedWorld world(inner, recorder.rings());
  float buffer[4] = {};
  comm::Call send{dag::CollectiveKind::send, 0,           4, dag::DType::f32,
                  dag::Reduction::none,      std::nullopt};
  send.peer = 0;
  send.tag = 2;
  world.comm(0).call(testing::allreduce(1), buffer);
  world.comm(0).call(send, buffer);
  world.comm(0).start(send, buffer)->wait();
  world.comm(0).call(testing::allreduce(2), buffer);
  const RankDump d = recorder.dump("request", "test", 1.0);
  const DumpComm& a = d.comms[0];
  ASSERT_EQ(a.calls.size(), 2u);
  EXPECT_EQ(a.calls[1].seq, 1u);
  EXPECT_EQ(a.calls[1].call.key, 2);
  ASSERT_EQ(a.messages.calls.size(), 2u);
  EXPECT_EQ(a.messages.calls[0].nth, 0u);
  EXPECT_EQ(a.messages.calls[1].nth, 1u);
  EXPECT_FALSE(a.messages.calls[1].blocking);
  EXPECT_EQ(a.messages.calls[1].state, "completed");
  ASSERT_EQ(a.messages.streams.size(), 1u);
  EXPECT_EQ(a.messages.streams[0], (DumpStream{dag::CollectiveKind::send, 0, 2, 2}));
  // An open message is what the watchdog sees the rank wait on, named by its place in its stream.
  EXPECT_FALSE(recorder.waits().call.has_value());
  world.comm(1).start_then(send, buffer, [](std::exception_ptr) {});
  ASSERT_TRUE(recorder.waits().call.has_value());
  EXPECT_NE(recorder.waits().call->what.find("tag 2 on 'b', key 0, nth 0"), std::string::npos)
      << recorder.waits().call->what;
  inner.b.held(nullptr);
  EXPECT_FALSE(recorder.waits().call.has_value());
}

}  // namespace
}  // namespace ordo::diag
