// Sends and recvs in the simulated world (docs/semantics.md, §3b), against what MPI-3.1 §3 says a
// message does: the recv's buffer holds the send's elements at its start and keeps the rest
// (§3.2.4), messages of one channel arrive in order (§3.5), a standard send may return before its
// recv is posted (§3.4), a recv from any source takes some sender's message, and a disagreement
// aborts the world with a mismatch instead of corrupting data.
#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

#include "runtime/comm/sim/sim_world.hpp"
#include "tests/comm/message_calls.hpp"

namespace ordo::comm::sim {
namespace {

using test::message;

Call send(dag::Rank to, std::int64_t key = 1, std::uint64_t count = 3, std::uint32_t tag = 0) {
  return message(dag::CollectiveKind::send, to, tag, key, count);
}
Call recv(dag::Rank from, std::int64_t key = 1, std::uint64_t count = 3, std::uint32_t tag = 0) {
  return message(dag::CollectiveKind::recv, from, tag, key, count);
}

std::vector<dag::Communicator> world_comm() { return {dag::Communicator{"world", std::nullopt}}; }

TEST(SimMessages, ARecvHoldsTheMessageAtItsStartAndKeepsTheRest) {
  for (const ReturnPolicy policy : {ReturnPolicy{}, ReturnPolicy{Returns::early, 0}}) {
    SimWorld world(2, world_comm(), Backend::mpi, policy);
    std::vector<float> out = {1, 2, 3};
    std::vector<float> in = {0, 0, 0, 0, 9};
    std::thread sender([&] { world.rank(0).comm(0).call(send(1), out.data()); });
    world.rank(1).comm(0).call(recv(0, 1, 5), in.data());
    sender.join();
    EXPECT_EQ(in, (std::vector<float>{1, 2, 3, 0, 9})) << describe(policy);
    EXPECT_FALSE(world.has_unmatched_calls());
  }
}

// §3.4: a standard send may complete before a matching receive is posted, and what it sent is
// what it had at its call, whatever its buffer holds afterwards.
TEST(SimMessages, ASendThatReturnedEarlyDeliversWhatItSent) {
  SimWorld world(2, world_comm(), Backend::mpi, ReturnPolicy{Returns::early, 0});
  std::vector<float> out = {4, 5, 6};
  world.rank(0).comm(0).call(send(1), out.data());  // returns: no recv posted yet
  EXPECT_TRUE(world.has_unmatched_calls());
  out = {7, 7, 7};
  std::vector<float> in(3, 0.0f);
  world.rank(1).comm(0).call(recv(0), in.data());
  EXPECT_EQ(in, (std::vector<float>{4, 5, 6}));
  EXPECT_FALSE(world.has_unmatched_calls());
}

// §3.5: two messages of one channel are received in the order sent.
TEST(SimMessages, MessagesOfOneChannelArriveInOrder) {
  SimWorld world(2, world_comm(), Backend::mpi, ReturnPolicy{Returns::early, 0});
  std::vector<float> first = {1, 1, 1};
  std::vector<float> second = {2, 2, 2};
  world.rank(0).comm(0).call(send(1, 1), first.data());
  world.rank(0).comm(0).call(send(1, 2), second.data());
  std::vector<float> a(3), b(3);
  world.rank(1).comm(0).call(recv(0, 1), a.data());
  world.rank(1).comm(0).call(recv(0, 2), b.data());
  EXPECT_EQ(a, first);
  EXPECT_EQ(b, second);
}

TEST(SimMessages, AMessageOfAnotherKeyAbortsTheWorld) {
  SimWorld world(2, world_comm(), Backend::mpi, ReturnPolicy{Returns::early, 0});
  std::vector<float> out = {1, 2, 3};
  world.rank(0).comm(0).call(send(1, 1), out.data());
  std::vector<float> in(3, 0.0f);
  EXPECT_THROW(world.rank(1).comm(0).call(recv(0, 2), in.data()), ViolationError);
  ASSERT_TRUE(world.violation().has_value());
  EXPECT_TRUE(std::holds_alternative<Mismatch>(*world.violation()));
  EXPECT_EQ(in, (std::vector<float>{0, 0, 0}));  // nothing was written
}

// Under the synchronising reading (calls return at their match) a send waits for its recv: the
// recv, posted later on another thread, releases it.
TEST(SimMessages, AtTheMatchASendWaitsForItsRecv) {
  SimWorld world(2, world_comm());
  std::vector<float> out = {1, 2, 3};
  std::unique_ptr<Request> pending = world.rank(0).comm(0).start(send(1), out.data());
  EXPECT_FALSE(pending->test());
  std::vector<float> in(3);
  world.rank(1).comm(0).call(recv(0), in.data());
  pending->wait();
  EXPECT_EQ(in, out);
}

// A recv from any source takes one of the messages sent to it; which one is the world's choice
// (a seed draws it), and each of them is delivered to exactly one recv.
TEST(SimMessages, ARecvFromAnySourceTakesSomeSendersMessage) {
  std::set<float> firsts;
  for (std::uint64_t seed : {0ull, 1ull, 2ull, 3ull, 4ull, 5ull, 6ull, 7ull}) {
    SimWorld world(3, world_comm(), Backend::mpi, ReturnPolicy{Returns::early, seed});
    std::vector<float> from1 = {1, 1, 1};
    std::vector<float> from2 = {2, 2, 2};
    // Each send may or may not return at once (the seed draws it), so each has its own thread.
    std::thread one([&] { world.rank(1).comm(0).call(send(0), from1.data()); });
    std::thread two([&] { world.rank(2).comm(0).call(send(0), from2.data()); });
    std::vector<float> a(3), b(3);
    world.rank(0).comm(0).call(recv(dag::any_source), a.data());
    world.rank(0).comm(0).call(recv(dag::any_source), b.data());
    one.join();
    two.join();
    EXPECT_NE(a[0], b[0]);
    EXPECT_TRUE(a[0] == 1 || a[0] == 2);
    EXPECT_TRUE(b[0] == 1 || b[0] == 2);
    firsts.insert(a[0]);
  }
  EXPECT_FALSE(firsts.empty());
}

// Returns::held: a recv from any source waits for its driver, which sees both choices once both
// messages wait, and takes the one it names.
TEST(SimMessages, AHeldRecvFromAnySourceTakesTheDriversChoice) {
  SimWorld world(3, world_comm(), Backend::mpi, ReturnPolicy{Returns::held, 0});
  std::vector<float> from1 = {1, 1, 1};
  std::vector<float> from2 = {2, 2, 2};
  std::vector<float> in(3);
  bool received = false;
  world.rank(0).comm(0).start_then(recv(dag::any_source), in.data(),
                                   [&](std::exception_ptr e) { received = e == nullptr; });
  world.rank(1).comm(0).start_then(send(0), from1.data(), [](std::exception_ptr) {});
  world.rank(2).comm(0).start_then(send(0), from2.data(), [](std::exception_ptr) {});
  EXPECT_FALSE(received);
  const std::vector<MessageChoice> open = world.message_choices(0);
  ASSERT_EQ(open.size(), 2u);
  EXPECT_EQ(open[0].source, 1u);
  EXPECT_EQ(open[1].source, 2u);
  EXPECT_THROW(world.take_message(0, "main", 0), std::logic_error);
  world.take_message(0, open[1].issuer, 2);
  EXPECT_TRUE(received);
  EXPECT_EQ(in, from2);
  EXPECT_TRUE(world.message_choices(0).empty());
  EXPECT_TRUE(world.has_unmatched_calls());  // rank 1's message waits for a recv
}

TEST(SimMessages, AMalformedMessageIsRefusedBeforeItIsPosted) {
  SimWorld world(2, world_comm());
  std::vector<float> out(3);
  EXPECT_THROW(world.rank(0).comm(0).call(send(dag::any_source), out.data()),
               std::invalid_argument);
  EXPECT_THROW(world.rank(0).comm(0).call(send(2), out.data()), std::invalid_argument);
  Call no_peer = send(1);
  no_peer.peer.reset();
  EXPECT_THROW(world.rank(0).comm(0).call(no_peer, out.data()), std::invalid_argument);
  EXPECT_FALSE(world.has_unmatched_calls());
}

}  // namespace
}  // namespace ordo::comm::sim
