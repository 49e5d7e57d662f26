// The simulated world's data semantics for reduce, reduce_scatter and allgather (docs/comm.md,
// "The collectives"), blocking and not, and how it refuses or reports their misuse.
#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "runtime/comm/sim/sim_world.hpp"
#include "tests/comm/sim/issue_everywhere.hpp"

namespace ordo::comm::sim {
namespace {

using testing::issue_everywhere;

Call call_of_kind(dag::CollectiveKind kind, std::uint64_t count, std::optional<dag::Rank> root) {
  const bool reduces = dag::takes_reduction(kind);
  return Call{kind, 0, count, dag::DType::f32, reduces ? dag::Reduction::sum : dag::Reduction::none,
              root};
}

// Rank r's element i starts as 100 r + i: every sum below names which ranks and places fed it.
std::vector<std::vector<float>> numbered(std::uint32_t ranks, std::uint64_t count) {
  std::vector<std::vector<float>> data(ranks, std::vector<float>(count));
  for (std::uint32_t r = 0; r < ranks; ++r) {
    for (std::uint64_t i = 0; i < count; ++i) data[r][i] = static_cast<float>(100 * r + i);
  }
  return data;
}

// The sum over ranks of 100 r + i.
float sum_at(std::uint32_t ranks, std::uint64_t i) {
  return static_cast<float>(100 * ranks * (ranks - 1) / 2 + ranks * i);
}

struct Form {
  std::uint32_t ranks;
  bool blocking;
};

class SimVocabulary : public ::testing::TestWithParam<Form> {};

TEST_P(SimVocabulary, ReduceSumsIntoTheRootOnlyFromEveryRoot) {
  const auto [ranks, blocking] = GetParam();
  for (dag::Rank root = 0; root < ranks; ++root) {
    SimWorld world(ranks, {{"world", std::nullopt}});
    std::vector<std::vector<float>> data = numbered(ranks, 3);
    const std::vector<std::vector<float>> before = data;
    issue_everywhere(world, call_of_kind(dag::CollectiveKind::reduce, 3, root), data, blocking);
    ASSERT_FALSE(world.violation());
    for (dag::Rank r = 0; r < ranks; ++r) {
      if (r == root) {
        EXPECT_EQ(data[r],
                  (std::vector<float>{sum_at(ranks, 0), sum_at(ranks, 1), sum_at(ranks, 2)}))
            << "root " << root;
      } else {
        EXPECT_EQ(data[r], before[r]) << "a non-root buffer only sends; rank " << r;
      }
    }
  }
}

TEST_P(SimVocabulary, ReduceScatterLeavesEachRanksBlockOfTheSumAtItsOwnOffset) {
  const auto [ranks, blocking] = GetParam();
  const std::uint64_t block = 2;
  SimWorld world(ranks, {{"world", std::nullopt}});
  std::vector<std::vector<float>> data = numbered(ranks, block * ranks);
  issue_everywhere(world, call_of_kind(dag::CollectiveKind::reduce_scatter, block * ranks, {}),
                   data, blocking);
  ASSERT_FALSE(world.violation());
  for (dag::Rank r = 0; r < ranks; ++r) {
    for (std::uint64_t j = 0; j < block; ++j) {
      const std::uint64_t i = r * block + j;
      EXPECT_EQ(data[r][i], sum_at(ranks, i)) << "rank " << r << ", element " << i;
    }
  }
}

TEST_P(SimVocabulary, AllgatherGivesEveryRankEveryRanksBlock) {
  const auto [ranks, blocking] = GetParam();
  const std::uint64_t block = 3;
  SimWorld world(ranks, {{"world", std::nullopt}});
  // Each rank fills only its own block; the others hold -1 until the call fills them.
  std::vector<std::vector<float>> data(ranks, std::vector<float>(block * ranks, -1.0f));
  for (dag::Rank r = 0; r < ranks; ++r) {
    for (std::uint64_t j = 0; j < block; ++j)
      data[r][r * block + j] = static_cast<float>(10 * r + j);
  }
  issue_everywhere(world, call_of_kind(dag::CollectiveKind::allgather, block * ranks, {}), data,
                   blocking);
  ASSERT_FALSE(world.violation());
  std::vector<float> whole;
  for (dag::Rank r = 0; r < ranks; ++r) {
    for (std::uint64_t j = 0; j < block; ++j) whole.push_back(static_cast<float>(10 * r + j));
  }
  for (dag::Rank r = 0; r < ranks; ++r) EXPECT_EQ(data[r], whole) << "rank " << r;
}

std::string form_name(const ::testing::TestParamInfo<Form>& param) {
  return std::to_string(param.param.ranks) + "ranks_" +
         (param.param.blocking ? "blocking" : "nonblocking");
}

INSTANTIATE_TEST_SUITE_P(Forms, SimVocabulary,
                         ::testing::Values(Form{2, true}, Form{3, true}, Form{4, true},
                                           Form{2, false}, Form{3, false}, Form{4, false}),
                         form_name);

TEST(SimVocabulary, ReduceWithDifferentRootsIsAMismatch) {
  SimWorld world(2, {{"world", std::nullopt}});
  std::vector<float> a(4), b(4);
  world.rank(0).comm(0).call_then(call_of_kind(dag::CollectiveKind::reduce, 4, 0), a.data(),
                                  [](std::exception_ptr) {});
  world.rank(1).comm(0).call_then(call_of_kind(dag::CollectiveKind::reduce, 4, 1), b.data(),
                                  [](std::exception_ptr) {});
  const std::optional<Violation> v = world.violation();
  ASSERT_TRUE(v);
  const auto& m = std::get<Mismatch>(*v);
  ASSERT_EQ(m.calls.size(), 2u);
  EXPECT_EQ(m.calls[0].call.root, dag::Rank{0});
  EXPECT_EQ(m.calls[1].call.root, dag::Rank{1});
  EXPECT_NE(describe(*v).find("reduce of 4 x f32 (sum) from root 1"), std::string::npos)
      << describe(*v);
}

TEST(SimVocabulary, ReduceScatterAgainstAllgatherIsAMismatch) {
  SimWorld world(2, {{"world", std::nullopt}});
  std::vector<float> a(4), b(4);
  world.rank(0).comm(0).call_then(call_of_kind(dag::CollectiveKind::reduce_scatter, 4, {}),
                                  a.data(), [](std::exception_ptr) {});
  world.rank(1).comm(0).call_then(call_of_kind(dag::CollectiveKind::allgather, 4, {}), b.data(),
                                  [](std::exception_ptr) {});
  ASSERT_TRUE(world.violation());
  EXPECT_EQ(kind_name(*world.violation()), "P1 mismatch");
}

TEST(SimVocabulary, ACountThatDoesNotSplitIsRefusedBeforeMatching) {
  SimWorld world(3, {{"world", std::nullopt}});
  std::vector<float> a(4);
  try {
    world.rank(0).comm(0).call(call_of_kind(dag::CollectiveKind::reduce_scatter, 4, {}), a.data());
    FAIL() << "a reduce_scatter of 4 elements at 3 ranks was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("reduce_scatter of 4 elements does not split into blocks "
                                         "for the communicator's 3 ranks"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(world.violation()) << "a refused call takes no part in matching";
}

}  // namespace
}  // namespace ordo::comm::sim
