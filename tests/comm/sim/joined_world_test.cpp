// Two worlds side by side (comm::JoinedWorld): the first's communicators, then the second's, as
// the trainer's flight recorder sees its device world and its MPI world.
#include "runtime/comm/joined_world.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>

#include "runtime/comm/sim/sim_world.hpp"

namespace ordo::comm {
namespace {

TEST(JoinedWorld, TheSecondWorldsCommunicatorsFollowTheFirsts) {
  sim::SimWorld step(2, {{"world", std::nullopt}, {"comm0", std::vector<dag::Rank>{1}}});
  sim::SimWorld host(2, {{"world", std::nullopt}});
  JoinedWorld both(step.rank(1), host.rank(1));
  EXPECT_EQ(both.rank(), 1u);
  EXPECT_EQ(both.size(), 2u);
  ASSERT_EQ(both.comm_count(), 3u);
  EXPECT_EQ(&both.comm(0), &step.rank(1).comm(0));
  EXPECT_EQ(&both.comm(1), &step.rank(1).comm(1));
  EXPECT_EQ(&both.comm(2), &host.rank(1).comm(0));
  EXPECT_TRUE(both.is_member(1));
  EXPECT_TRUE(both.is_member(2));
  JoinedWorld zero(step.rank(0), host.rank(0));
  EXPECT_FALSE(zero.is_member(1)) << "rank 0 is not in comm0";
  EXPECT_TRUE(zero.is_member(2));
  EXPECT_THROW((void)both.comm(3), std::out_of_range);
}

TEST(JoinedWorld, RefusesTwoRanksViews) {
  sim::SimWorld step(2, {{"world", std::nullopt}});
  sim::SimWorld host(2, {{"world", std::nullopt}});
  EXPECT_THROW(JoinedWorld(step.rank(0), host.rank(1)), std::invalid_argument);
  sim::SimWorld larger(3, {{"world", std::nullopt}});
  EXPECT_THROW(JoinedWorld(step.rank(0), larger.rank(0)), std::invalid_argument);
}

}  // namespace
}  // namespace ordo::comm
