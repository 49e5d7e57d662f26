// MpiWorld: communicators from member lists (ranks follow list order, non-members are told so),
// table validation, and barriers on every kind of communicator.
#include "runtime/comm/mpi/world.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "mpi_env.hpp"
#include "values.hpp"

namespace ordo::comm::test {
namespace {

using dag::DType;
using dag::Rank;
using dag::Reduction;

dag::Communicator everyone(std::string name) {
  return dag::Communicator{.name = std::move(name), .members = std::nullopt};
}

dag::Communicator of(std::string name, std::vector<Rank> members) {
  return dag::Communicator{.name = std::move(name), .members = std::move(members)};
}

// Broadcasts the world rank of the communicator's rank 0, and sums the world ranks of the
// members, which shows the data really flowed between exactly these processes.
void expect_members(Communicator& comm, const std::vector<Rank>& members) {
  std::int64_t root_world_rank = world().rank();
  comm.bcast(&root_world_rank, 1, DType::i64, 0);
  EXPECT_EQ(root_world_rank, members[0]) << comm.name();
  std::int64_t world_rank_sum = world().rank();
  comm.allreduce(&world_rank_sum, 1, DType::i64, Reduction::sum);
  std::int64_t expected_sum = 0;
  for (const Rank member : members) expected_sum += member;
  EXPECT_EQ(world_rank_sum, expected_sum) << comm.name();
}

std::vector<Rank> all_ranks() {
  std::vector<Rank> all;
  for (Rank rank = 0; rank < world().size(); ++rank) all.push_back(rank);
  return all;
}

TEST(MpiWorld, ReportsRankAndSize) {
  EXPECT_EQ(world().rank(), runtime().world_rank());
  EXPECT_EQ(world().size(), runtime().world_size());
  EXPECT_EQ(world().comm_count(), 1u);
  EXPECT_EQ(world_comm().rank(), world().rank());
  EXPECT_EQ(world_comm().size(), world().size());
  EXPECT_EQ(world_comm().name(), "world");
}

TEST(MpiWorld, CommunicatorRanksFollowTheMemberList) {
  MpiWorld jobs(runtime(), {of("first_two", {0, 1}), of("swapped", {1, 0}), everyone("all")});
  ASSERT_EQ(jobs.comm_count(), 3u);
  const Rank me = world().rank();
  const bool member = me < 2;
  EXPECT_EQ(jobs.is_member(0), member);
  EXPECT_EQ(jobs.is_member(1), member);
  EXPECT_TRUE(jobs.is_member(2));
  if (member) {
    EXPECT_EQ(jobs.comm(0).rank(), me);
    EXPECT_EQ(jobs.comm(1).rank(), 1 - me);
    EXPECT_EQ(jobs.comm(1).size(), 2u);
    expect_members(jobs.comm(0), {0, 1});
    expect_members(jobs.comm(1), {1, 0});
  } else {
    EXPECT_THROW(jobs.comm(0), std::logic_error);
  }
  expect_members(jobs.comm(2), all_ranks());
}

TEST(MpiWorld, SparseReversedMembers) {
  if (world().size() < 3) GTEST_SKIP() << "needs at least 3 ranks";
  MpiWorld jobs(runtime(), {of("two_zero", {2, 0})});
  const Rank me = world().rank();
  if (me == 2 || me == 0) {
    ASSERT_TRUE(jobs.is_member(0));
    EXPECT_EQ(jobs.comm(0).rank(), me == 2 ? 0u : 1u);
    EXPECT_EQ(jobs.comm(0).size(), 2u);
    expect_members(jobs.comm(0), {2, 0});
  } else {
    EXPECT_FALSE(jobs.is_member(0));
    try {
      jobs.comm(0);
      ADD_FAILURE() << "a non-member got a communicator";
    } catch (const std::logic_error& error) {
      EXPECT_NE(std::string(error.what()).find("not a member of communicator 0 ('two_zero')"),
                std::string::npos)
          << error.what();
    }
  }
}

TEST(MpiWorld, UnknownIdIsOutOfRange) {
  EXPECT_THROW(world().comm(1), std::out_of_range);
  EXPECT_THROW(static_cast<void>(world().is_member(1)), std::out_of_range);
}

// The message of the std::invalid_argument that building a world from `comms` throws.
std::string rejection(const std::vector<dag::Communicator>& comms) {
  try {
    MpiWorld rejected(runtime(), comms);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(MpiWorld, RejectsBadMemberListsOnEveryRank) {
  const Rank size = world().size();
  EXPECT_EQ(rejection({everyone("ok"), of("big", {0, size})}),
            "communicator 1 ('big') names rank " + std::to_string(size) + " but the world has " +
                std::to_string(size) + " ranks");
  EXPECT_EQ(rejection({of("dup", {1, 0, 1})}), "communicator 0 ('dup') names rank 1 twice");
  EXPECT_EQ(rejection({of("empty", {})}), "communicator 0 ('empty') has no members");
  EXPECT_EQ(rejection({everyone("ok")}), "");  // well formed: constructs
  // Every rank rejected the same tables before any MPI call, so collectives still match.
  std::int64_t one = 1;
  world_comm().allreduce(&one, 1, DType::i64, Reduction::sum);
  EXPECT_EQ(one, size);
}

TEST(MpiWorld, RejectsChunkSizesOutsideTheIntRange) {
  EXPECT_THROW(MpiWorld(runtime(), {everyone("x")}, MpiWorldOptions{.chunk_elements_max = 0}),
               std::invalid_argument);
}

TEST(Barrier, CompletesOnEveryKindOfCommunicator) {
  std::vector<Rank> reversed;
  for (Rank rank = world().size(); rank > 0; --rank) reversed.push_back(rank - 1);
  MpiWorld jobs(runtime(), {everyone("all"), of("pair", {1, 0}), of("reversed", reversed)});
  for (dag::CommId id = 0; id < jobs.comm_count(); ++id) {
    if (jobs.is_member(id)) {
      EXPECT_NO_THROW(jobs.comm(id).barrier(static_cast<std::int64_t>(id)));
    }
  }
  EXPECT_NO_THROW(world_comm().barrier());
}

}  // namespace
}  // namespace ordo::comm::test
