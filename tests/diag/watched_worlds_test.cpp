// The diagnostics stacked over a rank's worlds (watched_worlds.hpp): on a device path the flight
// recorder and the timeline watch the step world under its communicators' names and the MPI world
// as "host.<name>", fingerprint mode checks each world on channels of its own, and a step world or
// channels that do not fit are refused.
#include "runtime/diag/watched_worlds.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/comm/check_channel.hpp"
#include "runtime/comm/rules/fingerprint.hpp"
#include "runtime/comm/sim/issuer.hpp"
#include "tests/diag/dumps.hpp"
#include "tests/diag/fake_world.hpp"

namespace ordo::diag {
namespace {

using testing::fake_comms;
using testing::FakeWorld;

// The other member of a two-member channel issued `theirs` at every position: the key of an
// allreduce of 4 x f32, as testing::allreduce makes it, blocking or not as `blocks` says.
class FixedChannel final : public comm::CheckChannel {
 public:
  explicit FixedChannel(std::int64_t theirs, bool blocks = true)
      : theirs_(theirs), blocks_(blocks) {}
  std::uint32_t size() const override { return 2; }
  void gather(const std::byte* mine, std::byte* all, std::size_t bytes) override {
    ++exchanges;
    std::memcpy(all, mine, bytes);
    const comm::FingerprintRecord other =
        comm::encode(comm::Fingerprint{testing::allreduce(theirs_), blocks_});
    std::memcpy(all + bytes, other.data(), bytes);
  }
  void gather_then(const std::byte* mine, std::byte* all, std::size_t bytes,
                   comm::Communicator::Done done) override {
    gather(mine, all, bytes);
    done(nullptr);
  }
  void settle(double) override {}
  int exchanges = 0;

 private:
  std::int64_t theirs_;
  bool blocks_;
};

// Both worlds in fingerprint mode. At every position the other rank issued key `host_key` on the
// MPI world's communicators, and `step_a_key` on the step world's "a" and `step_b_key` on its
// "b", blocking as `step_blocks` says.
struct CheckedWorlds {
  CheckedWorlds(std::int64_t host_key, std::int64_t step_a_key, std::int64_t step_b_key,
                bool step_blocks = true)
      : host_a(host_key),
        host_b(host_key),
        step_a(step_a_key, step_blocks),
        step_b(step_b_key, step_blocks) {
    options.channels = {&host_a, &host_b};
    options.step_channels = {&step_a, &step_b};
  }
  FakeWorld host;
  FakeWorld step;
  FixedChannel host_a, host_b, step_a, step_b;
  WatchOptions options;
};

std::vector<std::string> names(const RankDump& dump) {
  std::vector<std::string> out;
  for (const DumpComm& c : dump.comms) out.push_back(c.name);
  return out;
}

TEST(WatchedWorlds, OnADevicePathTheRecorderAndTheTimelineWatchBothWorlds) {
  FakeWorld host;
  FakeWorld step;
  WatchOptions options;
  options.flight_recorder = true;
  options.timeline_path = "unwritten.json";  // finish() is not called: nothing is written
  WatchedWorlds watched(host, &step, fake_comms, options);
  ASSERT_NE(watched.step_world(), nullptr);
  ASSERT_NE(watched.recorder(), nullptr);
  ASSERT_NE(watched.timeline(), nullptr);
  float buffer[4] = {};
  {
    const comm::sim::IssuerScope issuer("main");
    watched.step_world()->comm(1).call(testing::allreduce(7), buffer);
    watched.world().comm(0).call(testing::allreduce(-1), buffer);
  }
  // Each call went to its own world's backend.
  EXPECT_EQ(step.b.calls, 1);
  EXPECT_EQ(step.a.calls, 0);
  EXPECT_EQ(host.a.calls, 1);
  EXPECT_EQ(host.b.calls, 0);

  const RankDump dump = watched.recorder()->dump("request", "test", 1.0);
  EXPECT_EQ(names(dump), (std::vector<std::string>{"a", "b", "host.a", "host.b"}));
  ASSERT_EQ(dump.comms[1].calls.size(), 1u);
  EXPECT_EQ(dump.comms[1].calls[0].call.key, 7);
  ASSERT_EQ(dump.comms[2].calls.size(), 1u);
  EXPECT_EQ(dump.comms[2].calls[0].call.key, -1);
  EXPECT_TRUE(dump.comms[0].calls.empty());
  EXPECT_TRUE(dump.comms[3].calls.empty());

  const flight::TimelineContents timeline = watched.timeline()->log().contents();
  EXPECT_EQ(timeline.comm_names, (std::vector<std::string>{"a", "b", "host.a", "host.b"}));
  std::vector<std::pair<std::uint32_t, std::int64_t>> collectives;  // communicator id, key
  for (const flight::TimelineEvent& e : timeline.events) {
    if (e.kind == flight::TimelineKind::collective) collectives.emplace_back(e.pool, e.key);
  }
  EXPECT_EQ(collectives, (std::vector<std::pair<std::uint32_t, std::int64_t>>{{1, 7}, {2, -1}}));
}

TEST(WatchedWorlds, OnTheHostPathOneWorldIsWatchedUnderItsOwnNames) {
  FakeWorld host;
  WatchOptions options;
  options.flight_recorder = true;
  WatchedWorlds watched(host, nullptr, fake_comms, options);
  EXPECT_EQ(watched.step_world(), nullptr);
  EXPECT_EQ(watched.timeline(), nullptr);
  float buffer[4] = {};
  watched.world().comm(0).call(testing::allreduce(3), buffer);
  const RankDump dump = watched.recorder()->dump("request", "test", 1.0);
  EXPECT_EQ(names(dump), (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(dump.comms[0].calls.size(), 1u);
  EXPECT_EQ(dump.comms[0].calls[0].call.key, 3);
}

TEST(WatchedWorlds, NothingAskedForLeavesTheWorldsBare) {
  FakeWorld host;
  FakeWorld step;
  WatchedWorlds watched(host, &step, fake_comms, WatchOptions{});
  EXPECT_EQ(&watched.world(), &host);
  EXPECT_EQ(watched.step_world(), &step);
  EXPECT_EQ(watched.recorder(), nullptr);
}

// Each world's k-th call on a communicator is compared on that world's channel: the step world's
// divergence is found on its channel and recorded as a failed call, never issued to its backend,
// while the MPI world's calls, which agree on theirs, go through.
TEST(WatchedWorlds, FingerprintModeChecksEachWorldOnItsOwnChannels) {
  CheckedWorlds w(-1, 5, 6);
  w.options.flight_recorder = true;
  WatchedWorlds watched(w.host, &w.step, fake_comms, w.options);
  float buffer[4] = {};
  watched.step_world()->comm(0).call(testing::allreduce(5), buffer);
  EXPECT_EQ(w.step.a.calls, 1);
  EXPECT_THROW(watched.step_world()->comm(1).call(testing::allreduce(7), buffer),
               flight::CollectiveMismatch);
  EXPECT_EQ(w.step.b.calls, 0);
  watched.world().comm(0).call(testing::allreduce(-1), buffer);
  EXPECT_EQ(w.host.a.calls, 1);
  EXPECT_EQ(w.step_a.exchanges, 1);
  EXPECT_EQ(w.step_b.exchanges, 1);
  EXPECT_EQ(w.host_a.exchanges, 1);
  EXPECT_EQ(w.host_b.exchanges, 0);

  const RankDump dump = watched.recorder()->dump("request", "test", 1.0);
  ASSERT_EQ(dump.comms[1].calls.size(), 1u);
  EXPECT_EQ(dump.comms[1].calls[0].state, "failed");
  ASSERT_EQ(dump.comms[2].calls.size(), 1u);
  EXPECT_EQ(dump.comms[2].calls[0].state, "completed");
}

// A mismatch names the communicator as the recorder does: the MPI world's as "host.<name>".
TEST(WatchedWorlds, AMismatchOnTheMpiWorldNamesItsHostCommunicator) {
  CheckedWorlds w(4, 0, 0);
  WatchedWorlds watched(w.host, &w.step, fake_comms, w.options);
  float buffer[4] = {};
  try {
    watched.world().comm(1).call(testing::allreduce(-1), buffer);
    FAIL() << "the mismatch was not found";
  } catch (const flight::CollectiveMismatch& e) {
    EXPECT_EQ(e.comm_name(), "host.b");
    EXPECT_NE(std::string(e.what()).find("collective mismatch on 'host.b' at call 0"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(w.host.b.calls, 0);
}

// Under NCCL a call is a launch whether the program's op blocks or not (comm::call_blocks), so
// a blocking call here matches the other rank's non-blocking one at the same position on a step
// world over NCCL; over MPI the two forms never match and the pair is refused.
TEST(WatchedWorlds, OnNcclTheBlockingFormIsNotCompared) {
  for (const comm::Backend backend : {comm::Backend::nccl, comm::Backend::mpi}) {
    CheckedWorlds w(0, 5, 5, comm::call_blocks(backend, false));
    w.options.step_backend = backend;
    WatchedWorlds watched(w.host, &w.step, fake_comms, w.options);
    float buffer[4] = {};
    if (backend == comm::Backend::nccl) {
      watched.step_world()->comm(0).call(testing::allreduce(5), buffer);
      EXPECT_EQ(w.step.a.calls, 1);
    } else {
      EXPECT_THROW(watched.step_world()->comm(0).call(testing::allreduce(5), buffer),
                   flight::CollectiveMismatch);
      EXPECT_EQ(w.step.a.calls, 0);
    }
  }
}

TEST(WatchedWorlds, RefusesAStepWorldOrChannelsThatDoNotFit) {
  FakeWorld host;
  FakeWorld step;
  FixedChannel channel(0);
  // A step world of other communicators than the MPI world's.
  class OneComm final : public comm::World {
   public:
    dag::Rank rank() const override { return 0; }
    std::uint32_t size() const override { return 2; }
    std::uint32_t comm_count() const override { return 1; }
    comm::Communicator& comm(dag::CommId) override { return only; }
    bool is_member(dag::CommId) const override { return true; }
    testing::FakeComm only{"a"};
  } one;
  EXPECT_THROW(WatchedWorlds(host, &one, fake_comms, WatchOptions{}), std::invalid_argument);
  WatchOptions host_only;
  host_only.channels = {&channel, &channel};
  EXPECT_THROW(WatchedWorlds(host, &step, fake_comms, host_only), std::invalid_argument);
  WatchOptions no_step;
  no_step.channels = {&channel, &channel};
  no_step.step_channels = {&channel, &channel};
  EXPECT_THROW(WatchedWorlds(host, nullptr, fake_comms, no_step), std::invalid_argument);
  WatchOptions too_few;
  too_few.channels = {&channel};
  EXPECT_THROW(WatchedWorlds(host, nullptr, fake_comms, too_few), std::invalid_argument);
}

}  // namespace
}  // namespace ordo::diag
