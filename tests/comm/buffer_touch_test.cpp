// The buffer rule (docs/semantics.md, B1-B3), written from MPI-3.1 §3.7.2 (a send buffer may be
// read but not modified until the send completes, a receive buffer not accessed at all), §5.12
// (the same for non-blocking collectives) and the engine's var rules (E1-E3: two grants that
// conflict never overlap), not from the implementation.
#include "runtime/comm/rules/buffer_touch.hpp"

#include <gtest/gtest.h>

namespace ordo::comm {
namespace {

using dag::CollectiveKind;

// Member i of a two-member communicator.
Member at(std::size_t i) { return Member{i, 2}; }

dag::Collective call(CollectiveKind kind, std::uint64_t count, std::uint64_t offset = 0,
                     std::optional<dag::Rank> root = std::nullopt) {
  dag::Collective c;
  c.kind = kind;
  c.count = count;
  c.offset = offset;
  c.root = root;
  c.reduction = kind == CollectiveKind::allreduce ? dag::Reduction::sum : dag::Reduction::none;
  return c;
}

// Vars: 0 "buf" (1024 bytes), 1 "other" (1024 bytes), 2 "tok" (a token).
dag::Program program() {
  dag::Program p;
  p.name = "p";
  p.pools = {dag::Pool{"compute", 2}};
  p.vars = {dag::Var{"buf", dag::VarKind::tensor, 1024, dag::DType::f32},
            dag::Var{"other", dag::VarKind::tensor, 1024, dag::DType::f32},
            dag::Var{"tok", dag::VarKind::token, 0, dag::DType::u8}};
  return p;
}

dag::OpId add_op(dag::Program& p, std::string name, dag::OpKind kind, std::vector<dag::VarId> reads,
                 std::vector<dag::VarId> writes, std::optional<dag::Collective> c = std::nullopt) {
  dag::Op op;
  op.name = std::move(name);
  op.kind = kind;
  op.reads = std::move(reads);
  op.writes = std::move(writes);
  op.collective = std::move(c);
  p.ops.push_back(op);
  p.main.push_back(dag::SubmitAction{static_cast<dag::OpId>(p.ops.size() - 1)});
  return static_cast<dag::OpId>(p.ops.size() - 1);
}

std::uint32_t add_main_call(dag::Program& p, const dag::Collective& c, dag::VarId buffer) {
  p.main.push_back(dag::CollectiveAction{c, buffer});
  return static_cast<std::uint32_t>(p.main.size() - 1);
}

TEST(BufferUse, SendersReadAndReceiversWrite) {
  EXPECT_EQ(buffer_use(call(CollectiveKind::send, 4), 0), BufferUse::read);
  EXPECT_EQ(buffer_use(call(CollectiveKind::recv, 4), 0), BufferUse::write);
  EXPECT_EQ(buffer_use(call(CollectiveKind::bcast, 4, 0, 1), 1), BufferUse::read);   // root
  EXPECT_EQ(buffer_use(call(CollectiveKind::bcast, 4, 0, 1), 0), BufferUse::write);  // non-root
  EXPECT_EQ(buffer_use(call(CollectiveKind::scatter, 4, 0, 0), 0), BufferUse::read);
  EXPECT_EQ(buffer_use(call(CollectiveKind::scatter, 4, 0, 0), 1), BufferUse::write);
  EXPECT_EQ(buffer_use(call(CollectiveKind::reduce, 4, 0, 0), 0), BufferUse::write);
  EXPECT_EQ(buffer_use(call(CollectiveKind::reduce, 4, 0, 0), 1), BufferUse::read);
  EXPECT_EQ(buffer_use(call(CollectiveKind::gather, 4, 0, 0), 1), BufferUse::read);
  for (CollectiveKind k :
       {CollectiveKind::allreduce, CollectiveKind::reduce_scatter, CollectiveKind::allgather,
        CollectiveKind::alltoall, CollectiveKind::scan, CollectiveKind::exscan}) {
    EXPECT_EQ(buffer_use(call(k, 4), 0), BufferUse::write);
  }
  EXPECT_EQ(buffer_use(call(CollectiveKind::barrier, 0), 0), BufferUse::none);
  // Without a member, the most any member does: a bcast's non-root writes.
  EXPECT_EQ(buffer_use(call(CollectiveKind::bcast, 4, 0, 0), std::nullopt), BufferUse::write);
  EXPECT_EQ(buffer_use(call(CollectiveKind::send, 4), std::nullopt), BufferUse::read);
}

TEST(BufferTouch, AMainCallRacesAWriterStillRunning) {
  dag::Program p = program();
  const dag::OpId copy = add_op(p, "copy", dag::OpKind::copy, {1}, {0});
  const std::uint32_t action = add_main_call(p, call(CollectiveKind::allreduce, 256), 0);
  ASSERT_TRUE(may_race(p));
  const std::optional<BufferRace> race =
      first_race(0, p, {}, {op_touches(p, copy, std::nullopt)}, main_touches(p, action, at(0)));
  ASSERT_TRUE(race);
  EXPECT_EQ(race->var, "buf");
  EXPECT_EQ(race->ongoing.party, "copy");
  EXPECT_TRUE(race->ongoing.writes);
  EXPECT_FALSE(race->ongoing.call);
  EXPECT_EQ(race->ongoing.bytes, 1024u);  // the whole var
  EXPECT_EQ(race->starting.party, "main");
  ASSERT_TRUE(race->starting.call);
  EXPECT_EQ(race->starting.call->kind, CollectiveKind::allreduce);
  EXPECT_EQ(race->starting.bytes, 1024u);  // 256 x f32
}

TEST(BufferTouch, ReadsBesideASendingCallDoNotRace) {
  dag::Program p = program();
  const dag::OpId reader = add_op(p, "reader", dag::OpKind::compute, {0}, {1});
  // A bcast at its root only sends (§3.7.2: the send buffer may be read meanwhile).
  const std::uint32_t root = add_main_call(p, call(CollectiveKind::bcast, 256, 0, 0), 0);
  EXPECT_FALSE(
      first_race(0, p, {}, {op_touches(p, reader, std::nullopt)}, main_touches(p, root, at(0))));
  // The same call at a non-root receives in place.
  EXPECT_TRUE(
      first_race(0, p, {}, {op_touches(p, reader, std::nullopt)}, main_touches(p, root, at(1))));
}

TEST(BufferTouch, DisjointSlicesDoNotRaceAndOverlappingOnesDo) {
  dag::Program p = program();
  // Two in-place allreduces whose ops declare the buffer read: neither is covered.
  const dag::OpId low = add_op(p, "low", dag::OpKind::async_collective, {0}, {2},
                               call(CollectiveKind::allreduce, 128, 0));
  const dag::OpId high = add_op(p, "high", dag::OpKind::async_collective, {0}, {2},
                                call(CollectiveKind::allreduce, 128, 128));
  const dag::OpId across = add_op(p, "across", dag::OpKind::async_collective, {0}, {2},
                                  call(CollectiveKind::allreduce, 128, 64));
  EXPECT_FALSE(first_race(0, p, {}, {op_touches(p, low, at(0))}, op_touches(p, high, at(0))));
  const std::optional<BufferRace> race =
      first_race(0, p, {}, {op_touches(p, low, at(0)), op_touches(p, high, at(0))},
                 op_touches(p, across, at(0)));
  ASSERT_TRUE(race);
  EXPECT_EQ(race->ongoing.party, "low");  // the first in party order
  EXPECT_EQ(race->starting.first, 256u);  // element 64 of f32
  EXPECT_EQ(race->starting.bytes, 512u);
}

TEST(BufferTouch, CoveredTouchesNeverRace) {
  dag::Program p = program();
  // Declared accesses are ordered by the engine (E1-E3): two writers of one var never overlap,
  // so the rule need not look, and an op whose call writes a buffer it declares written is
  // covered too.
  const dag::OpId writer = add_op(p, "writer", dag::OpKind::compute, {}, {0});
  const dag::OpId reduce =
      add_op(p, "reduce", dag::OpKind::collective, {}, {0}, call(CollectiveKind::allreduce, 256));
  EXPECT_FALSE(may_race(p));
  EXPECT_FALSE(first_race(0, p, {}, {op_touches(p, writer, at(0))}, op_touches(p, reduce, at(0))));
}

TEST(BufferTouch, ACallWritingABufferItsOpOnlyReadsIsNotCovered) {
  dag::Program p = program();
  const dag::OpId reader = add_op(p, "reader", dag::OpKind::compute, {0}, {1});
  // The paper's broadcast of a weight declared as read: at a non-root it writes in place.
  const dag::OpId bcast =
      add_op(p, "bcast", dag::OpKind::collective, {0}, {2}, call(CollectiveKind::bcast, 256, 0, 0));
  EXPECT_TRUE(may_race(p));
  EXPECT_TRUE(first_race(0, p, {}, {op_touches(p, reader, at(0))}, op_touches(p, bcast, at(1))));
  EXPECT_FALSE(first_race(0, p, {}, {op_touches(p, reader, at(0))}, op_touches(p, bcast, at(0))));
}

TEST(BufferTouch, TokensAndBarriersTouchNothing) {
  dag::Program p = program();
  const dag::OpId tokens = add_op(p, "tokens", dag::OpKind::compute, {2}, {2});
  EXPECT_TRUE(op_touches(p, tokens, at(0)).touches.empty());
  const std::uint32_t barrier = add_main_call(p, call(CollectiveKind::barrier, 0), 0);
  EXPECT_TRUE(main_touches(p, barrier, at(0)).touches.empty());
}

TEST(BufferTouch, ASourceCopiedInIsTouchedAtTheIssueOnly) {
  dag::Program p = program();
  // naive's push: the op reads `other` and writes `buf`; its body copies other's slice in, then
  // issues, so the copy is over before anything else runs (exec::issue_collective).
  const dag::OpId push = add_op(p, "push", dag::OpKind::async_collective, {1}, {0},
                                call(CollectiveKind::bcast, 256, 0, 0));
  const PartyTouches t = op_touches(p, push, at(0));  // at the root, the call only reads
  ASSERT_EQ(t.touches.size(), 3u);
  EXPECT_EQ(t.touches[0].var, 0u);
  EXPECT_TRUE(t.touches[0].writes);  // the copy into the slice
  EXPECT_TRUE(t.touches[0].instant);
  EXPECT_EQ(t.touches[1].var, 1u);  // the copy from the source
  EXPECT_FALSE(t.touches[1].writes);
  EXPECT_TRUE(t.touches[1].instant);
  EXPECT_EQ(t.touches[2].var, 0u);  // the call's use: a root's read, covered by the write grant
  EXPECT_FALSE(t.touches[2].writes);
  EXPECT_FALSE(t.touches[2].instant);
  EXPECT_TRUE(t.touches[2].covered);
  // A bcast op that writes `other` in place at its non-root while holding it only for reading
  // (not covered) races nothing of push's once push has issued: the source copy is over.
  const dag::OpId reader_bcast = add_op(p, "bcast", dag::OpKind::async_collective, {1}, {2},
                                        call(CollectiveKind::bcast, 256, 0, 0));
  EXPECT_FALSE(first_race(0, p, {}, {t}, op_touches(p, reader_bcast, at(1))));
  // But the copy, made while that bcast is in flight, races it.
  EXPECT_TRUE(first_race(0, p, {}, {op_touches(p, reader_bcast, at(1))}, t));
}

TEST(BufferTouch, BlocksOfAScatterAndAGatherNonRootAreTheMembersOwn) {
  dag::Program p = program();
  // 256 f32 on two members: block 0 is bytes 0 to 512, block 1 bytes 512 to 1024.
  const std::uint32_t scatter = add_main_call(p, call(CollectiveKind::scatter, 256, 0, 0), 0);
  const PartyTouches non_root = main_touches(p, scatter, at(1));
  ASSERT_EQ(non_root.touches.size(), 1u);  // it receives block 1 only
  EXPECT_EQ(non_root.touches[0].first, 512u);
  EXPECT_EQ(non_root.touches[0].bytes, 512u);
  EXPECT_TRUE(non_root.touches[0].writes);
  const std::uint32_t gather = add_main_call(p, call(CollectiveKind::gather, 256, 0, 0), 0);
  const PartyTouches sender = main_touches(p, gather, at(1));
  ASSERT_EQ(sender.touches.size(), 1u);  // a non-root sends its own block
  EXPECT_EQ(sender.touches[0].first, 512u);
  EXPECT_FALSE(sender.touches[0].writes);
  // A gather's root and an allgather's members work in place: their whole slice is the
  // library's, their own block included (an implementation may rotate blocks through it).
  const PartyTouches root = main_touches(p, gather, at(0));
  ASSERT_EQ(root.touches.size(), 1u);
  EXPECT_TRUE(root.touches[0].writes);
  EXPECT_EQ(root.touches[0].bytes, 1024u);
  const std::uint32_t allgather = add_main_call(p, call(CollectiveKind::allgather, 256), 0);
  const PartyTouches member1 = main_touches(p, allgather, at(1));
  ASSERT_EQ(member1.touches.size(), 1u);
  EXPECT_TRUE(member1.touches[0].writes);
  EXPECT_EQ(member1.touches[0].first, 0u);
  EXPECT_EQ(member1.touches[0].bytes, 1024u);
  // Without a member (a program many ranks run) the whole slice is written.
  const PartyTouches any = main_touches(p, allgather, std::nullopt);
  ASSERT_EQ(any.touches.size(), 1u);
  EXPECT_TRUE(any.touches[0].writes);
  EXPECT_EQ(any.touches[0].bytes, 1024u);
}

TEST(BufferTouch, AnOpOnAnotherMembersBlockDoesNotRaceAScatterNonRoot) {
  dag::Program p = program();
  // The non-root writes its block 1 only: an allreduce in place on block 0 beside it is no race,
  // an isend of block 1 is; at the root, which only reads, the isend is none either.
  const dag::OpId low = add_op(p, "low", dag::OpKind::async_collective, {0}, {2},
                               call(CollectiveKind::allreduce, 128, 0));
  const dag::OpId high = add_op(p, "high", dag::OpKind::async_collective, {0}, {2},
                                call(CollectiveKind::send, 128, 128));
  const std::uint32_t scatter = add_main_call(p, call(CollectiveKind::scatter, 256, 0, 0), 0);
  EXPECT_FALSE(first_race(0, p, {}, {op_touches(p, low, at(1))}, main_touches(p, scatter, at(1))));
  EXPECT_FALSE(first_race(0, p, {}, {op_touches(p, high, at(1))}, main_touches(p, scatter, at(0))));
  const std::optional<BufferRace> race =
      first_race(0, p, {}, {op_touches(p, high, at(1))}, main_touches(p, scatter, at(1)));
  ASSERT_TRUE(race);
  EXPECT_EQ(race->starting.first, 512u);
}

TEST(BufferTouch, OneStreamRunsTwoCallsOfARankOneAfterTheOther) {
  dag::Program p = program();
  // Two in-place allreduces on overlapping slices of a var their ops only read: concurrent
  // under MPI, one after the other on a stream (D1); a reader beside either races both ways.
  const dag::OpId a = add_op(p, "a", dag::OpKind::async_collective, {0}, {2},
                             call(CollectiveKind::allreduce, 128, 0));
  const dag::OpId b = add_op(p, "b", dag::OpKind::async_collective, {0}, {2},
                             call(CollectiveKind::allreduce, 128, 64));
  const dag::OpId reader = add_op(p, "reader", dag::OpKind::compute, {0}, {1});
  EXPECT_TRUE(first_race(0, p, {}, {op_touches(p, a, at(0))}, op_touches(p, b, at(0))));
  EXPECT_FALSE(first_race(0, p, {}, {op_touches(p, a, at(0))}, op_touches(p, b, at(0)),
                          CallOrder::one_stream));
  EXPECT_TRUE(first_race(0, p, {}, {op_touches(p, a, at(0))}, op_touches(p, reader, at(0)),
                         CallOrder::one_stream));
}

TEST(OngoingTouches, KeepsPartyOrderAndForgetsEndedParties) {
  dag::Program p = program();
  const dag::OpId a = add_op(p, "a", dag::OpKind::compute, {0}, {1});
  const dag::OpId b = add_op(p, "b", dag::OpKind::compute, {0}, {});
  const std::uint32_t action = add_main_call(p, call(CollectiveKind::allreduce, 256), 0);
  OngoingTouches ongoing;
  EXPECT_FALSE(ongoing.start(0, p, {}, op_touches(p, b, at(0))));
  EXPECT_FALSE(ongoing.start(0, p, {}, op_touches(p, a, at(0))));
  ASSERT_EQ(ongoing.parties().size(), 2u);
  EXPECT_EQ(ongoing.parties()[0].party, std::uint64_t{a} + 1);
  const std::optional<BufferRace> race = ongoing.start(0, p, {}, main_touches(p, action, at(0)));
  ASSERT_TRUE(race);
  EXPECT_EQ(race->ongoing.party, "a");
  ongoing.end(0);
  ongoing.end(std::uint64_t{a} + 1);
  ongoing.end(std::uint64_t{b} + 1);
  EXPECT_TRUE(ongoing.parties().empty());
  EXPECT_FALSE(ongoing.start(0, p, {}, main_touches(p, action, at(0))));
}

}  // namespace
}  // namespace ordo::comm
