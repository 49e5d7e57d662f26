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

}  // namespace
}  // namespace ordo::diag
