// When a call may return before its match (docs/semantics.md, C4), as the matching state says it
// to the checker and the simulated world: written from MPI-3.1 §5.1 (a call returns once its
// own participation is complete) and the table of needs, not from the implementation.
#include "runtime/comm/rules/completion.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "runtime/comm/rules/match_state.hpp"

namespace ordo::comm {
namespace {

using dag::CollectiveKind;
using dag::DType;
using dag::Reduction;

Call bcast(dag::Rank root) {
  return Call{CollectiveKind::bcast, 1, 4, DType::f32, Reduction::none, root};
}
Call reduce(dag::Rank root) {
  return Call{CollectiveKind::reduce, 1, 4, DType::f32, Reduction::sum, root};
}
Call allreduce() {
  return Call{CollectiveKind::allreduce, 1, 4, DType::f32, Reduction::sum, std::nullopt};
}

IssuedCall by(dag::Rank rank, const Call& call) { return IssuedCall{{rank, "main"}, call, true}; }

std::vector<std::size_t> members_of(const IssueResult& r) {
  std::vector<std::size_t> out;
  for (const MayReturn& m : std::get<Pending>(r).may_return) out.push_back(m.member);
  return out;
}

TEST(CompletionNeeds, FollowTheDataEachMemberReceives) {
  EXPECT_EQ(completion_needs(bcast(1), 1), CompletionNeeds::own);
  EXPECT_EQ(completion_needs(bcast(1), 0), CompletionNeeds::root);
  EXPECT_EQ(completion_needs(reduce(2), 0), CompletionNeeds::own);
  EXPECT_EQ(completion_needs(reduce(2), 2), CompletionNeeds::all);
  EXPECT_EQ(completion_needs(allreduce(), 0), CompletionNeeds::all);
  const Call barrier{CollectiveKind::barrier, 0, 0, DType::f32, Reduction::none, std::nullopt};
  EXPECT_EQ(completion_needs(barrier, 0), CompletionNeeds::all);  // §5.3: it must synchronise
  EXPECT_TRUE(may_complete_early(Backend::mpi));
  EXPECT_FALSE(may_complete_early(Backend::nccl));
}

Call of_kind(CollectiveKind kind, std::optional<dag::Rank> root) {
  const Reduction reduction = dag::takes_reduction(kind) ? Reduction::sum : Reduction::none;
  return Call{kind, 1, 6, DType::f32, reduction, root};
}

// §5.6: a scatter's non-root receives from the root only; §5.5: a gather's non-root only sends;
// §5.11: a scan member receives the reduction of the members up to itself; §5.8: an alltoall
// receives from everyone.
TEST(CompletionNeeds, TheBlockKindsFollowTheirData) {
  EXPECT_EQ(completion_needs(of_kind(CollectiveKind::scatter, 1), 1), CompletionNeeds::own);
  EXPECT_EQ(completion_needs(of_kind(CollectiveKind::scatter, 1), 0), CompletionNeeds::root);
  EXPECT_EQ(completion_needs(of_kind(CollectiveKind::gather, 1), 0), CompletionNeeds::own);
  EXPECT_EQ(completion_needs(of_kind(CollectiveKind::gather, 1), 1), CompletionNeeds::all);
  EXPECT_EQ(completion_needs(of_kind(CollectiveKind::scan, {}), 2), CompletionNeeds::prefix);
  EXPECT_EQ(completion_needs(of_kind(CollectiveKind::exscan, {}), 0), CompletionNeeds::prefix);
  EXPECT_EQ(completion_needs(of_kind(CollectiveKind::alltoall, {}), 0), CompletionNeeds::all);
}

// A scan member may return once every member before it issued, whoever issues last.
TEST(MatchState, AScanMemberMayReturnOnceThoseBeforeItIssued) {
  const Call scan = of_kind(CollectiveKind::scan, {});
  MatchState m(0, 4);
  EXPECT_TRUE(members_of(m.issue(2, by(2, scan), 12, "c")).empty());  // it needs 0 and 1
  // Member 0 needs only itself.
  EXPECT_EQ(members_of(m.issue(0, by(0, scan), 10, "c")), std::vector<std::size_t>{0});
  EXPECT_FALSE(m.may_return(2, 0));
  // Member 1's issue meets its own needs and member 2's; member 3 has not issued.
  EXPECT_EQ(members_of(m.issue(1, by(1, scan), 11, "c")), (std::vector<std::size_t>{1, 2}));
  EXPECT_TRUE(std::holds_alternative<Matched>(m.issue(3, by(3, scan), 13, "c")));
}

TEST(MatchState, ABcastRootMayReturnAtItsOwnIssue) {
  MatchState m(0, 3);
  EXPECT_EQ(members_of(m.issue(0, by(0, bcast(0)), 10, "c")), std::vector<std::size_t>{0});
  EXPECT_TRUE(m.may_return(0, 0));
  m.mark_returned(0, 0);
  EXPECT_FALSE(m.may_return(0, 0));  // once
  // A non-root needs the root only: it may return before the third member issued.
  EXPECT_EQ(members_of(m.issue(1, by(1, bcast(0)), 11, "c")), std::vector<std::size_t>{1});
  const IssueResult last = m.issue(2, by(2, bcast(0)), 12, "c");
  const Matched& matched = std::get<Matched>(last);
  EXPECT_EQ(matched.returned, (std::vector<bool>{true, false, false}));
}

TEST(MatchState, NonRootsWaitingForTheRootMayReturnWhenItIssues) {
  MatchState m(0, 3);
  EXPECT_TRUE(members_of(m.issue(1, by(1, bcast(0)), 11, "c")).empty());
  EXPECT_FALSE(m.may_return(1, 0));
  EXPECT_THROW(m.mark_returned(1, 0), std::logic_error);
  EXPECT_EQ(members_of(m.issue(0, by(0, bcast(0)), 10, "c")), (std::vector<std::size_t>{0, 1}));
}

TEST(MatchState, AReduceRootWaitsAndItsNonRootsDoNot) {
  MatchState m(0, 2);
  EXPECT_TRUE(members_of(m.issue(1, by(1, reduce(1)), 11, "c")).empty());
  EXPECT_FALSE(m.may_return(1, 0));
  MatchState n(0, 2);
  EXPECT_EQ(members_of(n.issue(0, by(0, reduce(1)), 10, "c")), std::vector<std::size_t>{0});
}

TEST(MatchState, AnAllreduceNeverReturnsBeforeItsMatch) {
  MatchState m(0, 3);
  EXPECT_TRUE(members_of(m.issue(0, by(0, allreduce()), 10, "c")).empty());
  EXPECT_TRUE(members_of(m.issue(1, by(1, allreduce()), 11, "c")).empty());
  EXPECT_FALSE(m.may_return(0, 0));
}

// C3 with C4: a blocking call its issuer returned from holds no thread, so the next call on the
// communicator is no thread-rule break; one it is still inside is.
TEST(MatchState, AReturnedCallFreesTheThreadRule) {
  MatchState m(0, 2);
  m.issue(0, by(0, bcast(0)), 10, "c");
  EXPECT_TRUE(std::holds_alternative<Violation>(m.issue(0, by(0, bcast(0)), 11, "c")));
  MatchState n(0, 2);
  n.issue(0, by(0, bcast(0)), 10, "c");
  n.mark_returned(0, 0);
  EXPECT_TRUE(std::holds_alternative<Pending>(n.issue(0, by(0, bcast(0)), 11, "c")));
}

}  // namespace
}  // namespace ordo::comm
