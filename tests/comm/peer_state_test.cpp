// Point-to-point matching (docs/semantics.md, §3b), written from MPI-3.1 §3.5 ("Messages are
// non-overtaking", and its two rules for a sender's successive messages and a receiver's
// successive receives), §3.2.4 (a receive longer than its message; truncation) and §3.4 (a
// standard send may buffer), not from the implementation.
#include "runtime/comm/rules/peer_state.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace ordo::comm {
namespace {

using dag::CollectiveKind;

constexpr dag::CommId kComm = 0;

IssuedCall send(dag::Rank from, dag::Rank to, std::uint32_t tag, std::int64_t key = 1,
                std::uint64_t count = 4) {
  Call call{CollectiveKind::send, key, count, dag::DType::f32, dag::Reduction::none, std::nullopt};
  call.peer = to;
  call.tag = tag;
  return IssuedCall{{from, "main"}, call, true};
}

IssuedCall recv(dag::Rank at, dag::Rank from, std::uint32_t tag, std::int64_t key = 1,
                std::uint64_t count = 4) {
  Call call{CollectiveKind::recv, key, count, dag::DType::f32, dag::Reduction::none, std::nullopt};
  call.peer = from;
  call.tag = tag;
  return IssuedCall{{at, "main"}, call, false};
}

const PeerEvents& events(const PeerResult& r) {
  if (const auto* v = std::get_if<Violation>(&r)) ADD_FAILURE() << describe(*v);
  return std::get<PeerEvents>(r);
}

// Party tags: the tests name each call by its own number.
PeerResult post(PeerState& s, std::size_t member, const IssuedCall& call, std::uint64_t party) {
  return s.post(member, call, party, kComm, "world");
}

TEST(PeerState, MessagesOfOneChannelMeetTheirReceivesInOrder) {
  PeerState s(2);
  // §3.5: "If a sender sends two messages in succession to the same destination, and both match
  // the same receive, then this operation cannot receive the second message if the first one is
  // still pending."
  EXPECT_TRUE(events(post(s, 0, send(0, 1, 5, 10), 1)).matches.empty());
  EXPECT_TRUE(events(post(s, 0, send(0, 1, 5, 11), 2)).matches.empty());
  const PeerEvents first = events(post(s, 1, recv(1, 0, 5, 10), 3));
  ASSERT_EQ(first.matches.size(), 1u);
  EXPECT_EQ(first.matches[0].send_tag, 1u);
  EXPECT_EQ(first.matches[0].recv_tag, 3u);
  EXPECT_EQ(first.matches[0].seq, 0u);
  const PeerEvents second = events(post(s, 1, recv(1, 0, 5, 11), 4));
  ASSERT_EQ(second.matches.size(), 1u);
  EXPECT_EQ(second.matches[0].send_tag, 2u);
  EXPECT_EQ(second.matches[0].seq, 1u);
  EXPECT_TRUE(s.empty());
}

TEST(PeerState, AReceivePostedFirstWaitsForItsSend) {
  PeerState s(2);
  EXPECT_TRUE(events(post(s, 1, recv(1, 0, 0), 7)).matches.empty());
  EXPECT_FALSE(s.empty());
  EXPECT_TRUE(s.in_flight(1, 7));
  const PeerEvents e = events(post(s, 0, send(0, 1, 0), 8));
  ASSERT_EQ(e.matches.size(), 1u);
  EXPECT_EQ(e.matches[0].sender, 0u);
  EXPECT_EQ(e.matches[0].receiver, 1u);
  // It met its receive at once: nothing to return from early.
  EXPECT_TRUE(e.may_return_members.empty());
  EXPECT_TRUE(s.empty());
}

// Tags and communicators separate channels: a receive of tag 2 meets the second message though
// the first, of tag 1, is still pending (§3.5 orders messages that "match the same receive").
TEST(PeerState, AnotherTagIsAnotherChannel) {
  PeerState s(2);
  post(s, 0, send(0, 1, 1, 10), 1);
  post(s, 0, send(0, 1, 2, 20), 2);
  const PeerEvents e = events(post(s, 1, recv(1, 0, 2, 20), 3));
  ASSERT_EQ(e.matches.size(), 1u);
  EXPECT_EQ(e.matches[0].send_tag, 2u);
  EXPECT_EQ(e.matches[0].seq, 0u);
  EXPECT_FALSE(s.empty());
}

// §3.4: a standard send "may complete before a matching receive is posted" (buffered), or not.
TEST(PeerState, AnUnmatchedSendMayReturnAndItsMatchThenTellsItNothing) {
  PeerState s(2);
  const PeerEvents e = events(post(s, 0, send(0, 1, 0), 1));
  ASSERT_EQ(e.may_return_members, std::vector<std::size_t>{0});
  EXPECT_EQ(e.may_return_tags, std::vector<std::uint64_t>{1});
  EXPECT_TRUE(s.may_return(0, 1));
  s.mark_returned(0, 1);
  EXPECT_FALSE(s.may_return(0, 1));
  EXPECT_FALSE(s.in_flight(0, 1));
  EXPECT_FALSE(s.empty());  // the message is still on its way
  const PeerEvents m = events(post(s, 1, recv(1, 0, 0), 2));
  ASSERT_EQ(m.matches.size(), 1u);
  EXPECT_TRUE(m.matches[0].send_returned);
  EXPECT_TRUE(s.empty());
}

TEST(PeerState, AReceiveNeverReturnsBeforeItsMessage) {
  PeerState s(2);
  post(s, 1, recv(1, 0, 0), 1);
  EXPECT_FALSE(s.may_return(1, 1));
  EXPECT_THROW(s.mark_returned(1, 1), std::logic_error);
}

// MPI_ANY_SOURCE: which waiting message a receive takes is MPI's choice among the sources that
// sent one; each is a choice of its own.
TEST(PeerState, AReceiveFromAnySourceChoosesAmongTheWaitingMessages) {
  PeerState s(3);
  post(s, 1, recv(1, dag::any_source, 4), 1);
  EXPECT_TRUE(s.choices(1).empty());  // nothing sent yet: it waits
  post(s, 0, send(0, 1, 4), 2);
  post(s, 2, send(2, 1, 4), 3);
  const std::vector<PeerChoice> open = s.choices(1);
  ASSERT_EQ(open.size(), 2u);
  EXPECT_EQ(open[0], (PeerChoice{1, 1, 0}));
  EXPECT_EQ(open[1], (PeerChoice{1, 1, 2}));
  PeerState other = s;
  const PeerEvents e = events(s.choose(open[1], kComm, "world"));
  ASSERT_EQ(e.matches.size(), 1u);
  EXPECT_EQ(e.matches[0].sender, 2u);
  EXPECT_TRUE(s.choices(1).empty());
  const PeerEvents f = events(other.choose(open[0], kComm, "world"));
  EXPECT_EQ(f.matches[0].sender, 0u);
  // A message of another tag is not a choice.
  PeerState t(3);
  post(t, 1, recv(1, dag::any_source, 4), 1);
  post(t, 0, send(0, 1, 5), 2);
  EXPECT_TRUE(t.choices(1).empty());
}

// §3.5: "If a receiver posts two receives in succession, and both match the same message, then
// the second receive operation cannot be satisfied by this message, if the first one is still
// pending." A receive from rank 0 posted after one from any source waits until that one took a
// message: if it takes rank 0's, the second waits for rank 0's next.
TEST(PeerState, AReceiveWaitsBehindAnEarlierReceiveFromAnySource) {
  PeerState s(3);
  post(s, 1, recv(1, dag::any_source, 0, 1), 1);
  EXPECT_TRUE(events(post(s, 1, recv(1, 0, 0, 1), 2)).matches.empty());
  EXPECT_TRUE(events(post(s, 0, send(0, 1, 0, 1), 3)).matches.empty());  // not the second's
  ASSERT_EQ(s.choices(1), (std::vector<PeerChoice>{{1, 1, 0}}));
  PeerState took_other = s;
  const PeerEvents e = events(s.choose({1, 1, 0}, kComm, "world"));
  ASSERT_EQ(e.matches.size(), 1u);
  EXPECT_EQ(e.matches[0].recv_tag, 1u);
  EXPECT_FALSE(s.empty());  // the second waits for rank 0's next message
  EXPECT_TRUE(events(post(s, 0, send(0, 1, 0, 1), 4)).matches.size() == 1);
  // Had rank 2's message come and been taken, rank 0's goes to the second receive at once.
  post(took_other, 2, send(2, 1, 0, 1), 5);
  const PeerEvents g = events(took_other.choose({1, 1, 2}, kComm, "world"));
  ASSERT_EQ(g.matches.size(), 2u);
  EXPECT_EQ(g.matches[0].sender, 2u);
  EXPECT_EQ(g.matches[1].sender, 0u);
  EXPECT_EQ(g.matches[1].recv_tag, 2u);
  EXPECT_TRUE(took_other.empty());
}

TEST(PeerState, OnlyTheFirstReceiveFromAnySourcePerTagChooses) {
  PeerState s(2);
  post(s, 1, recv(1, dag::any_source, 0), 1);
  post(s, 1, recv(1, dag::any_source, 0), 2);
  post(s, 1, recv(1, dag::any_source, 3), 3);
  post(s, 0, send(0, 1, 0), 4);
  post(s, 0, send(0, 1, 3), 5);
  EXPECT_EQ(s.choices(1), (std::vector<PeerChoice>{{1, 1, 0}, {1, 3, 0}}));
  EXPECT_THROW(s.choose({1, 2, 0}, kComm, "world"), std::logic_error);
}

TEST(PeerState, AReceiveOfAnotherTagDoesNotWaitBehindOne) {
  PeerState s(2);
  post(s, 1, recv(1, dag::any_source, 0), 1);
  post(s, 0, send(0, 1, 9), 2);
  EXPECT_EQ(events(post(s, 1, recv(1, 0, 9), 3)).matches.size(), 1u);
}

// M3: the message's key, offset and dtype are the receive's, and it fits (§3.2.4: a longer
// receive is fine, a shorter one is MPI_ERR_TRUNCATE). A disagreement leaves the state as it was.
TEST(PeerState, AMessageMustAgreeWithItsReceive) {
  PeerState s(2);
  post(s, 0, send(0, 1, 0, 1, 4), 1);
  const PeerState before = s;
  const PeerResult wrong_key = post(s, 1, recv(1, 0, 0, 2, 4), 2);
  ASSERT_TRUE(std::holds_alternative<Violation>(wrong_key));
  const auto& m = std::get<Mismatch>(std::get<Violation>(wrong_key));
  ASSERT_EQ(m.calls.size(), 2u);
  EXPECT_EQ(m.calls[0].call.kind, CollectiveKind::send);
  EXPECT_EQ(m.calls[1].call.kind, CollectiveKind::recv);
  EXPECT_EQ(m.seq, 0u);
  EXPECT_EQ(s, before);
  EXPECT_TRUE(std::holds_alternative<Violation>(post(s, 1, recv(1, 0, 0, 1, 3), 2)));
  EXPECT_EQ(s, before);
  EXPECT_EQ(events(post(s, 1, recv(1, 0, 0, 1, 8), 2)).matches.size(), 1u);
}

TEST(PeerState, AMismatchFoundByAChoiceUndoesTheChoice) {
  PeerState s(3);
  post(s, 1, recv(1, dag::any_source, 0, 1), 1);
  post(s, 2, send(2, 1, 0, 7), 2);
  const PeerState before = s;
  ASSERT_TRUE(std::holds_alternative<Violation>(s.choose({1, 1, 2}, kComm, "world")));
  EXPECT_EQ(s, before);
}

TEST(PeerState, ARankMaySendToItself) {
  PeerState s(1);
  post(s, 0, send(0, 0, 0), 1);
  EXPECT_EQ(events(post(s, 0, recv(0, 0, 0), 2)).matches.size(), 1u);
  EXPECT_TRUE(s.empty());
}

}  // namespace
}  // namespace ordo::comm
