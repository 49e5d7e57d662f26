// The flight recorder's ring: its bounds (the last N calls, numbered by the communicator's seq),
// the call states, parked completions, and a reader racing the writers (run under TSan in CI).
#include "runtime/flight/flight_ring.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace ordo::diag {
namespace {

comm::Call allreduce(std::int64_t key) {
  return comm::Call{
      dag::CollectiveKind::allreduce, key, 4, dag::DType::f32, dag::Reduction::sum, std::nullopt};
}

TEST(FlightRing, KeepsTheLastCapacityCallsInSeqOrder) {
  flight::FlightRing ring(4);
  for (std::int64_t k = 0; k < 10; ++k) {
    const flight::FlightRing::Issued issued = ring.issue(allreduce(k), true, "ar", nullptr);
    EXPECT_EQ(issued.seq, static_cast<std::uint64_t>(k));
    ring.started(issued.seq);
    ring.ended(issued.seq, false);
  }
  const flight::FlightRing::View view = ring.view();
  EXPECT_EQ(view.issued, 10u);
  ASSERT_EQ(view.entries.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(view.entries[i].seq, 6 + i);
    EXPECT_EQ(view.entries[i].call.key, static_cast<std::int64_t>(6 + i));
    EXPECT_EQ(view.entries[i].state, flight::CallState::completed);
    EXPECT_GT(view.entries[i].ended_ns, 0);
  }
  EXPECT_FALSE(ring.oldest_open().has_value());
}

TEST(FlightRing, StatesAndTheOldestOpenCall) {
  flight::FlightRing ring(8);
  const auto a = ring.issue(allreduce(1), true, "a", nullptr);
  const auto b = ring.issue(allreduce(2), false, "b", nullptr);
  ring.started(b.seq);
  ring.ended(a.seq, true);
  const flight::FlightRing::View view = ring.view();
  ASSERT_EQ(view.entries.size(), 2u);
  EXPECT_EQ(view.entries[0].state, flight::CallState::failed);
  EXPECT_EQ(view.entries[1].state, flight::CallState::in_flight);
  EXPECT_FALSE(view.entries[1].blocking);
  EXPECT_STREQ(view.entries[1].issuer.data(), "b");
  ASSERT_TRUE(ring.oldest_open().has_value());
  EXPECT_EQ(ring.oldest_open()->seq, b.seq);
  // A call that ended before started() was seen stays ended.
  const auto c = ring.issue(allreduce(3), true, "c", nullptr);
  ring.ended(c.seq, false);
  ring.started(c.seq);
  EXPECT_EQ(ring.view().entries.back().state, flight::CallState::completed);
}

comm::Call message(dag::CollectiveKind kind, dag::Rank peer, std::uint32_t tag) {
  comm::Call c{kind, 0, 4, dag::DType::f32, dag::Reduction::none, std::nullopt};
  c.peer = peer;
  c.tag = tag;
  return c;
}

// A message's place is in its stream (kind, peer, tag), and the streams are counted whole even
// when the ring holds only the last messages or has no free slot for one.
TEST(FlightRing, NumbersMessagesInTheirStreamsAndCountsEveryStream) {
  flight::FlightRing ring(2);
  using dag::CollectiveKind;
  const comm::Call to1 = message(CollectiveKind::send, 1, 0);
  const comm::Call to1_tag5 = message(CollectiveKind::send, 1, 5);
  const comm::Call from_any = message(CollectiveKind::recv, dag::any_source, 0);
  for (const comm::Call& c : {to1, to1_tag5, to1, from_any, to1}) {
    ring.ended(ring.issue(c, true, "m", nullptr).seq, false);
  }
  comm::Communicator::Done parked = [](std::exception_ptr) {};
  ring.issue(to1, false, "held", nullptr, &parked);  // seq 5, parked in slot 1
  ring.issue(to1_tag5, false, "kept", nullptr);      // seq 6, slot 0
  ring.issue(to1_tag5, false, "lost", nullptr);      // seq 7: slot 1 is parked, so unrecorded
  const flight::FlightRing::View view = ring.view();
  EXPECT_EQ(view.issued, 8u);
  EXPECT_EQ(view.unrecorded, 1u);
  ASSERT_EQ(view.entries.size(), 1u);
  EXPECT_EQ(view.entries[0].seq, 6u);
  EXPECT_EQ(view.entries[0].nth, 1u);  // the second send to 1 with tag 5
  ASSERT_EQ(view.streams.size(), 3u);
  EXPECT_EQ(view.streams[0].stream, (flight::MessageStream{CollectiveKind::send, 1, 0}));
  EXPECT_EQ(view.streams[0].issued, 4u);
  EXPECT_EQ(view.streams[1].issued, 3u);  // tag 5, the unrecorded one counted
  EXPECT_EQ(view.streams[2].stream.peer, dag::any_source);
  EXPECT_EQ(view.streams[2].issued, 1u);
  // A collective has no stream.
  flight::FlightRing calls(2);
  calls.issue(allreduce(1), true, "ar", nullptr);
  EXPECT_TRUE(calls.view().streams.empty());
  EXPECT_EQ(calls.view().entries[0].nth, 0u);
}

TEST(FlightRing, CutsLongNamesToTheSlot) {
  flight::FlightRing ring(1);
  ring.issue(allreduce(1), true, std::string(500, 'x'), nullptr);
  const flight::FlightEntry e = ring.view().entries.at(0);
  EXPECT_EQ(std::string(e.issuer.data()), std::string(flight::issuer_bytes - 1, 'x'));
}

TEST(FlightRing, ParksCompletionsAndNeverOverwritesAParkedOne) {
  flight::FlightRing ring(2);
  int ran = 0;
  comm::Communicator::Done d0 = [&](std::exception_ptr) { ++ran; };
  comm::Communicator::Done d1 = [&](std::exception_ptr) { ran += 10; };
  comm::Communicator::Done d2 = [&](std::exception_ptr) { ran += 100; };
  const auto a = ring.issue(allreduce(0), false, "a", nullptr, &d0);
  const auto b = ring.issue(allreduce(1), false, "b", nullptr, &d1);
  EXPECT_TRUE(a.parked);
  EXPECT_TRUE(b.parked);
  // Slot of seq 0 still holds a's callback: seq 2 is not recorded and keeps its callback.
  const auto c = ring.issue(allreduce(2), false, "c", nullptr, &d2);
  EXPECT_EQ(c.seq, 2u);
  EXPECT_FALSE(c.parked);
  EXPECT_TRUE(static_cast<bool>(d2));
  EXPECT_EQ(ring.view().unrecorded, 1u);
  comm::Communicator::Done back = ring.ended(a.seq, false);
  ASSERT_TRUE(static_cast<bool>(back));
  back(nullptr);
  EXPECT_EQ(ran, 1);
  EXPECT_FALSE(static_cast<bool>(ring.ended(a.seq, false)));  // handed out once
  const flight::FlightRing::View view = ring.view();
  EXPECT_EQ(view.issued, 3u);
  ASSERT_EQ(view.entries.size(), 1u);  // seq 1 only: seq 2 was kept out
  EXPECT_EQ(view.entries[0].seq, 1u);
}

TEST(FlightRing, RejectsAnEmptyRing) { EXPECT_THROW(flight::FlightRing(0), std::invalid_argument); }

// Writers issue and end calls while a reader takes views and looks for the oldest open call, as
// the watchdog does while collectives run. TSan holds the ring to having no data race.
TEST(FlightRing, ReadersRaceWritersSafely) {
  flight::FlightRing ring(16);
  std::atomic<bool> stop{false};
  std::thread reader([&] {
    std::uint64_t last = 0;
    while (!stop.load()) {
      const flight::FlightRing::View view = ring.view();
      EXPECT_GE(view.issued, last);
      last = view.issued;
      for (std::size_t i = 1; i < view.entries.size(); ++i) {
        EXPECT_LT(view.entries[i - 1].seq, view.entries[i].seq);
      }
      (void)ring.oldest_open();
    }
  });
  std::vector<std::thread> writers;
  for (int w = 0; w < 2; ++w) {
    writers.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) {
        comm::Communicator::Done done = [](std::exception_ptr) {};
        const auto issued = ring.issue(allreduce(i), false, "w", nullptr, &done);
        ring.started(issued.seq);
        if (comm::Communicator::Done back = ring.ended(issued.seq, false)) back(nullptr);
      }
    });
  }
  for (std::thread& t : writers) t.join();
  stop.store(true);
  reader.join();
  EXPECT_EQ(ring.view().issued, 4000u);
  EXPECT_FALSE(ring.oldest_open().has_value());
}

}  // namespace
}  // namespace ordo::diag
