// The simulated world returning calls before their match (docs/semantics.md, C4): a bcast root and
// a reduce non-root at once, a bcast non-root once the root issued, what each receives being what
// the members it needs sent at their issue, and the held mode a controlled run drives.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "runtime/comm/sim/issuer.hpp"
#include "runtime/comm/sim/sim_world.hpp"

namespace ordo::comm::sim {
namespace {

Call bcast(dag::Rank root) {
  return Call{dag::CollectiveKind::bcast, 3, 1, dag::DType::i32, dag::Reduction::none, root};
}
Call reduce(dag::Rank root) {
  return Call{dag::CollectiveKind::reduce, 4, 1, dag::DType::i32, dag::Reduction::sum, root};
}

struct Flag {
  bool done = false;
  Communicator::Done set() {
    return [this](std::exception_ptr e) {
      if (e) std::rethrow_exception(e);
      done = true;
    };
  }
};

TEST(EarlyReturn, ABcastRootReturnsBeforeTheOthersAndTheyGetWhatItSent) {
  SimWorld world(3, {{"world", std::nullopt}}, Backend::mpi, ReturnPolicy{Returns::early, 0});
  std::vector<std::int32_t> data = {7, 0, 0};
  Flag root, first, second;
  world.rank(0).comm(0).call_then(bcast(0), &data[0], root.set());
  EXPECT_TRUE(root.done);  // no other member has issued
  data[0] = 99;            // the root's buffer is its own again once it returned
  world.rank(1).comm(0).call_then(bcast(0), &data[1], first.set());
  EXPECT_TRUE(first.done);  // it needs the root only, not member 2
  EXPECT_EQ(data[1], 7);
  world.rank(2).comm(0).call_then(bcast(0), &data[2], second.set());
  EXPECT_TRUE(second.done);
  EXPECT_EQ(data[2], 7);
  EXPECT_EQ(data[0], 99);  // the match writes nothing into a member that returned
  EXPECT_FALSE(world.has_unmatched_calls());
}

TEST(EarlyReturn, AReduceNonRootReturnsAtOnceAndTheRootWaits) {
  SimWorld world(2, {{"world", std::nullopt}}, Backend::mpi, ReturnPolicy{Returns::early, 0});
  std::int32_t root_value = 1;
  std::int32_t sent = 5;
  Flag root, leaf;
  world.rank(0).comm(0).call_then(reduce(0), &root_value, root.set());
  EXPECT_FALSE(root.done);  // the root needs every member
  world.rank(1).comm(0).call_then(reduce(0), &sent, leaf.set());
  EXPECT_TRUE(root.done);
  EXPECT_TRUE(leaf.done);
  EXPECT_EQ(root_value, 6);
  SimWorld later(2, {{"world", std::nullopt}}, Backend::mpi, ReturnPolicy{Returns::early, 0});
  std::int32_t a = 1;
  std::int32_t b = 5;
  Flag r2, l2;
  later.rank(1).comm(0).call_then(reduce(0), &b, l2.set());
  EXPECT_TRUE(l2.done);
  b = 1000;  // written after it returned: the root must still sum what it sent
  later.rank(0).comm(0).call_then(reduce(0), &a, r2.set());
  EXPECT_TRUE(r2.done);
  EXPECT_EQ(a, 6);
}

TEST(EarlyReturn, AtTheMatchNoCallReturnsEarly) {
  SimWorld world(2, {{"world", std::nullopt}});
  std::int32_t x = 7;
  std::int32_t y = 0;
  Flag root, other;
  world.rank(0).comm(0).call_then(bcast(0), &x, root.set());
  EXPECT_FALSE(root.done);
  world.rank(1).comm(0).call_then(bcast(0), &y, other.set());
  EXPECT_TRUE(root.done);
  EXPECT_EQ(y, 7);
}

TEST(EarlyReturn, HeldCallsReturnWhenTheDriverSays) {
  SimWorld world(2, {{"world", std::nullopt}}, Backend::mpi, ReturnPolicy{Returns::held, 0});
  std::int32_t x = 7;
  Flag root;
  {
    const IssuerScope main("main");
    world.rank(0).comm(0).call_then(bcast(0), &x, root.set());
  }
  EXPECT_FALSE(root.done);
  ASSERT_EQ(world.held_returns(0).size(), 1u);
  EXPECT_EQ(world.held_returns(0)[0].issuer, "main");
  EXPECT_TRUE(world.held_returns(1).empty());
  EXPECT_THROW(world.return_now(1, "main"), std::logic_error);
  world.return_now(0, "main");
  EXPECT_TRUE(root.done);
  EXPECT_TRUE(world.held_returns(0).empty());
  EXPECT_TRUE(world.has_unmatched_calls());  // the other member never issued
}

TEST(EarlyReturn, NcclKeepsTheSynchronisingReading) {
  SimWorld world(2, {{"world", std::nullopt}}, Backend::nccl, ReturnPolicy{Returns::early, 0});
  std::int32_t x = 7;
  Flag root;
  world.rank(0).comm(0).call_then(bcast(0), &x, root.set());
  EXPECT_FALSE(root.done);
}

}  // namespace
}  // namespace ordo::comm::sim
