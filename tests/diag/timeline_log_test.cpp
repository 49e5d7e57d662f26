// The timeline's log under concurrent writers and a reader: bounded (a full log counts what it
// drops), every kept event whole, and the links the writer draws flows from (the last writer of a
// var, the op that issued a call) kept per thread. Runs under ThreadSanitizer (scripts/test.sh).
#include "runtime/flight/timeline_log.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace ordo::diag {
namespace {

engine::OpDesc op(std::string name, std::vector<dag::VarId> writes, dag::OpKind kind,
                  std::int64_t key = 0) {
  engine::OpDesc d;
  d.name = std::move(name);
  for (dag::VarId v : writes) d.writes.push_back(engine::VarHandle{v});
  d.kind = kind;
  if (dag::is_collective(kind)) {
    d.collective = dag::Collective{dag::CollectiveKind::allreduce,
                                   0,
                                   key,
                                   256,
                                   dag::DType::f32,
                                   dag::Reduction::sum,
                                   std::nullopt};
  }
  return d;
}

TEST(TimelineLog, ConcurrentWritersAreBoundedAndCountWhatTheyDrop) {
  constexpr std::size_t capacity = 1000;
  constexpr int writers = 4;
  constexpr int rounds = 400;  // each round: an op, a call inside it, a wait: 3 events
  flight::TimelineLog log(0, 1, capacity);
  log.set_comm_name(0, "grads");
  std::atomic<bool> done{false};
  std::thread reader([&] {
    while (!done.load()) {
      const flight::TimelineContents c = log.contents();
      ASSERT_LE(c.events.size(), capacity);
    }
  });
  std::vector<std::thread> threads;
  for (int w = 0; w < writers; ++w) {
    threads.emplace_back([&log, w] {
      const std::string pool = "pool" + std::to_string(w);
      for (int i = 0; i < rounds; ++i) {
        const engine::OpDesc d =
            op("op" + std::to_string(i), {static_cast<dag::VarId>(w)}, dag::OpKind::compute);
        const std::int64_t token = log.op_begin(d, pool, static_cast<std::uint32_t>(w));
        const comm::Call call{dag::CollectiveKind::allreduce,
                              i,
                              4,
                              dag::DType::f64,
                              dag::Reduction::sum,
                              std::nullopt};
        log.collective_end(log.collective_begin(0, call, i % 2 == 0), false);
        log.op_end(token);
        log.wait_end(log.wait_begin("wait_for_all", {}));
      }
    });
  }
  for (std::thread& t : threads) t.join();
  done = true;
  reader.join();

  const flight::TimelineContents c = log.contents();
  ASSERT_EQ(c.events.size(), capacity);
  EXPECT_EQ(c.dropped, std::uint64_t{3} * writers * rounds - capacity);
  EXPECT_EQ(c.capacity, capacity);
  for (std::size_t i = 0; i < c.events.size(); ++i) {
    const flight::TimelineEvent& e = c.events[i];
    // A kept event's end is recorded (its begin was kept, so its end finds it).
    EXPECT_GE(e.end_ns, e.begin_ns) << i;
    EXPECT_NE(e.end_ns, 0) << i;
    if (i > 0) {
      EXPECT_GE(e.begin_ns, c.events[i - 1].begin_ns) << "begin order at " << i;
    }
    if (e.kind == flight::TimelineKind::collective) {
      EXPECT_EQ(e.bytes, 32u);
      // Issued from inside an op on the same thread: that op is its issuer.
      ASSERT_GE(e.issuer, 0) << i;
      const flight::TimelineEvent& issuer = c.events[static_cast<std::size_t>(e.issuer)];
      EXPECT_EQ(issuer.kind, flight::TimelineKind::op);
      EXPECT_LE(issuer.begin_ns, e.begin_ns);
    }
  }
  EXPECT_EQ(c.comm_names.at(0), "grads");
}

TEST(TimelineLog, ACollectiveOpFlowsFromTheLastWriterOfItsVar) {
  flight::TimelineLog log(1, 2, 16);
  const std::int64_t a = log.op_begin(op("fwd", {1}, dag::OpKind::compute), "compute", 0);
  log.op_end(a);
  const std::int64_t b = log.op_begin(op("bwd.conv1", {2}, dag::OpKind::compute), "compute", 1);
  log.op_end(b);
  const std::int64_t ar =
      log.op_begin(op("ar.7", {2}, dag::OpKind::async_collective, 7), "comm", 0);
  const std::int64_t call = log.collective_begin(
      0, {dag::CollectiveKind::allreduce, 7, 256, dag::DType::f32, dag::Reduction::sum, {}}, false);
  log.op_end(ar);
  // Issued after the op's function returned (a completion on another thread): no issuer.
  const std::int64_t later = log.collective_begin(
      0, {dag::CollectiveKind::barrier, 0, 0, dag::DType::f32, dag::Reduction::none, std::nullopt},
      true);
  log.collective_end(call, false);
  log.collective_end(later, true);
  const flight::TimelineContents c = log.contents();
  ASSERT_EQ(c.events.size(), 5u);
  EXPECT_EQ(c.rank, 1u);
  EXPECT_EQ(c.world_size, 2u);
  EXPECT_EQ(c.events[2].flow_from, b);
  EXPECT_EQ(c.events[2].key, 7);
  EXPECT_EQ(c.events[2].bytes, 1024u);
  EXPECT_STREQ(c.events[2].name.data(), "ar.7");
  EXPECT_EQ(c.events[3].issuer, ar);
  EXPECT_EQ(c.events[4].issuer, -1);
  EXPECT_TRUE(c.events[4].failed);
  EXPECT_EQ(c.pool_names, (std::vector<std::string>{"compute"}));
}

TEST(TimelineLog, NamesAreCutAndCapacityIsChecked) {
  flight::TimelineLog log(0, 1, 1);
  const std::int64_t t = log.op_begin(op(std::string(200, 'x'), {}, dag::OpKind::compute), "p", 0);
  EXPECT_EQ(t, 0);
  log.op_end(t);
  EXPECT_EQ(log.wait_begin("wait_for_all", {}), -1);  // full
  log.wait_end(-1);                                   // a dropped event's end is a no-op
  const flight::TimelineContents c = log.contents();
  EXPECT_EQ(std::strlen(c.events[0].name.data()), flight::timeline_name_bytes - 1);
  EXPECT_EQ(c.dropped, 1u);
  EXPECT_THROW(flight::TimelineLog(0, 1, 0), std::invalid_argument);
  EXPECT_THROW(flight::TimelineLog(0, 1, flight::timeline_events_max + 1), std::invalid_argument);
}

}  // namespace
}  // namespace ordo::diag
