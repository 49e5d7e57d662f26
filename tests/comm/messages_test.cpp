// Sends and recvs through the Open MPI backend (docs/semantics.md, §3b): a ring in the safe order
// of MPI-3.1 §3.5 (even ranks send first, odd ranks receive first), the same with MPI_Isend and
// MPI_Irecv, messages of one channel in order, a recv longer than its message (§3.2.4), and
// MPI_ANY_SOURCE, each byte for byte against what every rank sent.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "message_calls.hpp"
#include "mpi_env.hpp"

namespace ordo::comm::test {
namespace {

std::vector<float> from_rank(dag::Rank r, std::size_t count) {
  std::vector<float> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = static_cast<float>(1000 * r + i);
  return v;
}

TEST(Messages, ARingInTheSafeOrderDeliversEveryRanksData) {
  Communicator& comm = world_comm();
  const dag::Rank n = comm.size();
  const dag::Rank me = comm.rank();
  const dag::Rank next = (me + 1) % n;
  const dag::Rank prev = (me + n - 1) % n;
  constexpr std::size_t count = 4099;
  std::vector<float> out = from_rank(me, count);
  std::vector<float> in(count, -1.0f);
  const Call to_next = message(dag::CollectiveKind::send, next, 3, 7, count);
  const Call from_prev = message(dag::CollectiveKind::recv, prev, 3, 7, count);
  if (me % 2 == 0) {
    comm.call(to_next, out.data());
    comm.call(from_prev, in.data());
  } else {
    comm.call(from_prev, in.data());
    comm.call(to_next, out.data());
  }
  EXPECT_EQ(in, from_rank(prev, count));
}

TEST(Messages, NonBlockingSendsAndRecvsInAnyOrder) {
  Communicator& comm = world_comm();
  const dag::Rank n = comm.size();
  const dag::Rank me = comm.rank();
  constexpr std::size_t count = 513;
  std::vector<float> out = from_rank(me, count);
  std::vector<float> in(count, -1.0f);
  const dag::Rank next = (me + 1) % n;
  const dag::Rank prev = (me + n - 1) % n;
  // Every rank posts its recv and its send at once, then waits: no order can hang (§3.7).
  auto r = comm.start(message(dag::CollectiveKind::recv, prev, 0, 1, count), in.data());
  auto s = comm.start(message(dag::CollectiveKind::send, next, 0, 1, count), out.data());
  s->wait();
  r->wait();
  EXPECT_EQ(in, from_rank(prev, count));
}

// §3.5: two messages of one channel are received in the order sent; a longer recv keeps the
// elements past the message (§3.2.4).
TEST(Messages, OneChannelKeepsItsOrderAndALongerRecvItsTail) {
  Communicator& comm = world_comm();
  ASSERT_GE(comm.size(), 2u) << "the MPI tests run at 2 and 4 ranks";
  if (comm.rank() == 0) {
    std::vector<float> a = {1, 2};
    std::vector<float> b = {3, 4};
    comm.call(message(dag::CollectiveKind::send, 1, 9, 5, 2), a.data());
    comm.call(message(dag::CollectiveKind::send, 1, 9, 5, 2), b.data());
  } else if (comm.rank() == 1) {
    std::vector<float> first(3, -1.0f);
    std::vector<float> second(2, -1.0f);
    comm.call(message(dag::CollectiveKind::recv, 0, 9, 5, 3), first.data());
    comm.call(message(dag::CollectiveKind::recv, 0, 9, 5, 2), second.data());
    EXPECT_EQ(first, (std::vector<float>{1, 2, -1}));
    EXPECT_EQ(second, (std::vector<float>{3, 4}));
  }
}

// Rank 0 receives from any source once per other rank: it gets every other rank's message once,
// in some order.
TEST(Messages, RecvsFromAnySourceTakeEveryMessageOnce) {
  Communicator& comm = world_comm();
  const dag::Rank n = comm.size();
  if (comm.rank() != 0) {
    std::vector<float> out = from_rank(comm.rank(), 8);
    comm.call(message(dag::CollectiveKind::send, 0, 2, 4, 8), out.data());
    return;
  }
  std::set<float> senders;
  for (dag::Rank i = 1; i < n; ++i) {
    std::vector<float> in(8, -1.0f);
    comm.call(message(dag::CollectiveKind::recv, dag::any_source, 2, 4, 8), in.data());
    const auto sender = static_cast<dag::Rank>(in[0] / 1000.0f);
    EXPECT_EQ(in, from_rank(sender, 8));
    senders.insert(in[0]);
  }
  EXPECT_EQ(senders.size(), n - 1);
}

TEST(Messages, AMalformedMessageIsRefusedBeforeMpiSeesIt) {
  Communicator& comm = world_comm();
  std::vector<float> buffer(4);
  EXPECT_THROW(
      comm.call(message(dag::CollectiveKind::send, dag::any_source, 0, 1, 4), buffer.data()),
      std::invalid_argument);
  EXPECT_THROW(comm.call(message(dag::CollectiveKind::send, comm.size(), 0, 1, 4), buffer.data()),
               std::invalid_argument);
  EXPECT_THROW(
      comm.call(message(dag::CollectiveKind::recv, 0, dag::tag_max + 1, 1, 4), buffer.data()),
      std::invalid_argument);
}

}  // namespace
}  // namespace ordo::comm::test
