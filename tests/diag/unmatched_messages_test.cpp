// `ordo analyze` on sends and recvs: a message whose other side its peer never issued is found and
// named by its stream, whatever the other ranks did; one every side issued is no fault of ordo's.
#include <gtest/gtest.h>

#include "runtime/diag/analysis.hpp"
#include "tests/diag/dumps.hpp"

namespace ordo::diag {
namespace {

using testing::add_message;
using testing::empty_dump;
using testing::recv;
using testing::send;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Two ranks, each waiting in one message: `at0` on rank 0, `at1` on rank 1.
Analysis one_open_each(const comm::Call& at0, const comm::Call& at1) {
  RankDump r0 = empty_dump(0, 2);
  RankDump r1 = empty_dump(1, 2);
  add_message(r0, 0, at0, true);
  add_message(r1, 0, at1, true);
  return analyze({r0, r1});
}

TEST(UnmatchedMessages, ARecvItsPeerNeverSentIsNamed) {
  RankDump r0 = empty_dump(0, 2);
  RankDump r1 = empty_dump(1, 2);
  add_message(r0, 0, send(1), false, "tx");
  add_message(r1, 0, recv(0), false, "rx.0");
  add_message(r1, 0, recv(0), true, "rx.1");
  const Analysis a = analyze({r0, r1});
  EXPECT_EQ(a.finding, Finding::fault);
  ASSERT_EQ(a.unmatched.size(), 1u);
  EXPECT_EQ(a.unmatched[0].peer, std::optional<dag::Rank>(0));
  EXPECT_EQ(a.headline,
            "rank 1 waits in recv of 4 x f32 from rank 0, tag 0 on 'grads', key 0, nth 1, which "
            "rank 0 never sent: it sent 1 such message(s) in all")
      << a.headline;
  EXPECT_TRUE(
      contains(human_report(a), "unmatched on communicator 0 ('grads'):\n  rank 1 waits in recv"));
  EXPECT_TRUE(contains(human_report(a), "open: nth 1: recv"));
  EXPECT_TRUE(contains(json_report(a), "\"unmatched\": ["));
  EXPECT_TRUE(contains(dot_report(a), "r1 -> r0")) << dot_report(a);
}

// MPI-3.1 §3.5, Example 3.9: two blocking sends head to head wait for ever where the library
// does not buffer them; each waits for a recv its peer never posted.
TEST(UnmatchedMessages, HeadToHeadSendsAreBothNamed) {
  const Analysis a = one_open_each(send(1), send(0));
  EXPECT_EQ(a.finding, Finding::fault);
  ASSERT_EQ(a.unmatched.size(), 2u);
  EXPECT_TRUE(contains(a.headline, "which rank 1 never posted a recv for: it posted 0"))
      << a.headline;
}

TEST(UnmatchedMessages, AMessageBothSidesIssuedIsNoFaultOfTheProgram) {
  const Analysis a = one_open_each(send(1, 3), recv(0, 3));
  EXPECT_TRUE(a.unmatched.empty());
  EXPECT_EQ(a.finding, Finding::inconclusive);
}

// Tags are streams of their own: a send with tag 1 does not match a recv with tag 2.
TEST(UnmatchedMessages, AnotherTagIsAnotherStream) {
  EXPECT_EQ(one_open_each(send(1, 1), recv(0, 2)).unmatched.size(), 2u);
}

// A recv from any source may take rank 0's send, so rank 0's send waits for no missing recv.
TEST(UnmatchedMessages, ARecvFromAnySourceCanMatchASend) {
  RankDump r0 = empty_dump(0, 3);
  RankDump r1 = empty_dump(1, 3);
  RankDump r2 = empty_dump(2, 3);
  add_message(r0, 0, send(1, 7), true);
  add_message(r1, 0, recv(dag::any_source, 7), true);
  const Analysis a = analyze({r0, r1, r2});
  EXPECT_TRUE(a.unmatched.empty());
}

TEST(UnmatchedMessages, ARecvFromAnySourceWithTooFewSendsIsNamed) {
  RankDump r0 = empty_dump(0, 3);
  RankDump r1 = empty_dump(1, 3);
  RankDump r2 = empty_dump(2, 3);
  add_message(r0, 0, recv(dag::any_source, 7), false);
  add_message(r0, 0, recv(dag::any_source, 7), true);
  add_message(r1, 0, send(0, 7), false);
  add_message(r2, 0, send(0, 8), false);  // another tag
  const Analysis a = analyze({r0, r1, r2});
  ASSERT_EQ(a.unmatched.size(), 1u);
  EXPECT_FALSE(a.unmatched[0].peer.has_value());
  EXPECT_TRUE(contains(a.headline,
                       "which no rank sent: the members sent rank 0 1 message(s) with "
                       "tag 7 on 'grads', and this is its recv 2 from any source "
                       "with that tag"))
      << a.headline;
}

// Fewer messages than recvs proves only that some recv starves: here the recv from any source,
// posted first, takes rank 1's message in transit (MPI-3.1 §3.5), and the recv from rank 1
// starves. Naming either would be a guess, so neither is named.
TEST(UnmatchedMessages, TooFewMessagesForTwoRecvsNamesNeither) {
  RankDump r0 = empty_dump(0, 2);
  RankDump r1 = empty_dump(1, 2);
  add_message(r0, 0, recv(dag::any_source, 7), true);
  add_message(r0, 0, recv(1, 7), true);
  add_message(r1, 0, send(0, 7), false);
  const Analysis a = analyze({r0, r1});
  EXPECT_TRUE(a.unmatched.empty()) << a.headline;
}

// A dump of version 1 recorded no messages, so its rank's side of a message is not known.
TEST(UnmatchedMessages, APeerWhoseDumpHasNoMessagesIsNotKnown) {
  RankDump r0 = empty_dump(0, 2);
  RankDump r1 = empty_dump(1, 2);
  add_message(r0, 0, recv(1), true);
  r1.comms[0].messages_known = false;
  const Analysis a = analyze({r0, r1});
  ASSERT_EQ(a.unmatched.size(), 1u);
  EXPECT_TRUE(a.unmatched[0].peer_missing);
}

// Without every member's dump, whether some rank sent it is not known.
TEST(UnmatchedMessages, AnySourceWithAMemberMissingIsNotJudged) {
  RankDump r0 = empty_dump(0, 3);
  RankDump r1 = empty_dump(1, 3);
  add_message(r0, 0, recv(dag::any_source, 7), true);
  const Analysis a = analyze({r0, r1});
  EXPECT_TRUE(a.unmatched.empty());
  EXPECT_EQ(a.finding, Finding::fault);  // the missing rank is the finding
}

TEST(UnmatchedMessages, APeerWithoutADumpIsNamed) {
  RankDump r0 = empty_dump(0, 2);
  add_message(r0, 0, recv(1), true);
  const Analysis a = analyze({r0});
  ASSERT_EQ(a.unmatched.size(), 1u);
  EXPECT_TRUE(a.unmatched[0].peer_missing);
  EXPECT_TRUE(contains(human_report(a), "whose peer, rank 1, left no dump of its messages"));
}

// A message's peer is a rank of the communicator; the finding names the world rank.
TEST(UnmatchedMessages, PeersAreMembersOfTheCommunicator) {
  RankDump r0 = empty_dump(0, 3, {"pipe"});
  RankDump r1 = empty_dump(1, 3, {"pipe"});
  RankDump r2 = empty_dump(2, 3, {"pipe"});
  for (RankDump* d : {&r0, &r2}) {
    d->comms[0].members = std::vector<dag::Rank>{2, 0};
    d->comms[0].size = 2;
  }
  r0.comms[0].rank = 1;
  r2.comms[0].rank = 0;
  r1.comms.clear();
  add_message(r0, 0, recv(0), true);  // from member 0: world rank 2
  add_message(r2, 0, send(1, 4), false);
  const Analysis a = analyze({r0, r1, r2});
  ASSERT_EQ(a.unmatched.size(), 1u);
  EXPECT_EQ(a.unmatched[0].peer, std::optional<dag::Rank>(2));
  EXPECT_TRUE(contains(a.headline, "which rank 2 never sent: it sent 0")) << a.headline;
}

}  // namespace
}  // namespace ordo::diag
