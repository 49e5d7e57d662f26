// The simulated world's data for gather, scatter, alltoall, scan and exscan against a reference
// written from MPI-3.1 (§5.5, §5.6, §5.8, §5.11) in ordo's in-place convention (docs/dag-format.md,
// "The buffer of a collective"): every rank count from 2 to 4, blocking and not, with calls
// returning at their match and as early as the standard allows (docs/semantics.md, C4).
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "runtime/comm/sim/sim_world.hpp"
#include "tests/comm/sim/issue_everywhere.hpp"

namespace ordo::comm::sim {
namespace {

using testing::issue_everywhere;

using Buffers = std::vector<std::vector<float>>;

Call call_of(dag::CollectiveKind kind, std::uint64_t count, std::optional<dag::Rank> root) {
  const dag::Reduction reduction =
      dag::takes_reduction(kind) ? dag::Reduction::sum : dag::Reduction::none;
  return Call{kind, 5, count, dag::DType::f32, reduction, root};
}

// Rank r's element i starts as 100 r + i, so every result names where it came from.
Buffers numbered(std::uint32_t ranks, std::uint64_t count) {
  Buffers data(ranks, std::vector<float>(count));
  for (std::uint32_t r = 0; r < ranks; ++r) {
    for (std::uint64_t i = 0; i < count; ++i) data[r][i] = static_cast<float>(100 * r + i);
  }
  return data;
}

// What MPI leaves in every rank's buffer, from the standard's description of each call.
Buffers reference(const Call& call, const Buffers& before) {
  const std::size_t n = before.size();
  const std::uint64_t block = call.count / n;
  Buffers after = before;
  switch (call.kind) {
    case dag::CollectiveKind::gather:  // the root's block i is rank i's block i
      for (std::size_t i = 0; i < n; ++i) {
        for (std::uint64_t j = 0; j < block; ++j) {
          after[*call.root][i * block + j] = before[i][i * block + j];
        }
      }
      break;
    case dag::CollectiveKind::scatter:  // rank i's block i is the root's block i
      for (std::size_t i = 0; i < n; ++i) {
        for (std::uint64_t j = 0; j < block; ++j) {
          after[i][i * block + j] = before[*call.root][i * block + j];
        }
      }
      break;
    case dag::CollectiveKind::alltoall:  // rank i's block j is rank j's block i
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t k = 0; k < n; ++k) {
          for (std::uint64_t j = 0; j < block; ++j) {
            after[i][k * block + j] = before[k][i * block + j];
          }
        }
      }
      break;
    case dag::CollectiveKind::scan:    // rank i holds the sum over ranks 0 to i
    case dag::CollectiveKind::exscan:  // rank i > 0 holds the sum over ranks 0 to i - 1
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t last = call.kind == dag::CollectiveKind::scan ? i + 1 : i;
        if (last == 0) continue;  // exscan's rank 0: undefined in MPI, unchanged here
        for (std::uint64_t e = 0; e < call.count; ++e) {
          float sum = 0.0f;
          for (std::size_t k = 0; k < last; ++k) sum += before[k][e];
          after[i][e] = sum;
        }
      }
      break;
    default:
      ADD_FAILURE() << "no reference for this kind";
  }
  return after;
}

struct Form {
  std::uint32_t ranks;
  bool blocking;
  Returns returns;
};

class SimBlockKinds : public ::testing::TestWithParam<Form> {};

TEST_P(SimBlockKinds, EveryKindLeavesWhatTheStandardSays) {
  const Form form = GetParam();
  const std::uint64_t block = 3;
  const std::uint64_t count = block * form.ranks;
  for (const dag::CollectiveKind kind :
       {dag::CollectiveKind::gather, dag::CollectiveKind::scatter, dag::CollectiveKind::alltoall,
        dag::CollectiveKind::scan, dag::CollectiveKind::exscan}) {
    const bool rooted = dag::takes_root(kind);
    for (dag::Rank root = 0; root < (rooted ? form.ranks : 1); ++root) {
      SimWorld world(form.ranks, {{"world", std::nullopt}}, Backend::mpi,
                     ReturnPolicy{form.returns, 0});
      const Call call =
          call_of(kind, count, rooted ? std::optional<dag::Rank>(root) : std::nullopt);
      Buffers data = numbered(form.ranks, count);
      const Buffers expected = reference(call, data);
      issue_everywhere(world, call, data, form.blocking);
      ASSERT_FALSE(world.violation());
      EXPECT_EQ(data, expected) << describe(call, "world");
    }
  }
}

std::string form_name(const ::testing::TestParamInfo<Form>& param) {
  return std::to_string(param.param.ranks) + "ranks_" +
         (param.param.blocking ? "blocking" : "nonblocking") +
         (param.param.returns == Returns::early ? "_early" : "_at_match");
}

INSTANTIATE_TEST_SUITE_P(
    Forms, SimBlockKinds,
    ::testing::Values(Form{2, true, Returns::at_match}, Form{3, true, Returns::at_match},
                      Form{4, true, Returns::at_match}, Form{2, false, Returns::at_match},
                      Form{4, false, Returns::at_match}, Form{2, true, Returns::early},
                      Form{3, true, Returns::early}, Form{4, true, Returns::early},
                      Form{3, false, Returns::early}),
    form_name);

// A scatter non-root returns once the root issued and a scan member once the members before it
// did, before the others: with one thread per member, in an order chosen here.
TEST(SimBlockKinds, ScatterAndScanMembersReturnWithWhatTheyNeed) {
  SimWorld world(3, {{"world", std::nullopt}}, Backend::mpi, ReturnPolicy{Returns::early, 0});
  Buffers data = numbered(3, 3);
  bool root_done = false;
  bool first_done = false;
  world.rank(0).comm(0).call_then(call_of(dag::CollectiveKind::scatter, 3, 0), data[0].data(),
                                  [&](std::exception_ptr) { root_done = true; });
  EXPECT_TRUE(root_done);
  world.rank(1).comm(0).call_then(call_of(dag::CollectiveKind::scatter, 3, 0), data[1].data(),
                                  [&](std::exception_ptr) { first_done = true; });
  EXPECT_TRUE(first_done);
  EXPECT_EQ(data[1][1], 1.0f);  // the root's block 1
  Buffers scan = numbered(3, 2);
  SimWorld scans(3, {{"world", std::nullopt}}, Backend::mpi, ReturnPolicy{Returns::early, 0});
  bool zero = false;
  bool two = false;
  scans.rank(2).comm(0).call_then(call_of(dag::CollectiveKind::scan, 2, {}), scan[2].data(),
                                  [&](std::exception_ptr) { two = true; });
  EXPECT_FALSE(two);  // it needs members 0 and 1
  scans.rank(0).comm(0).call_then(call_of(dag::CollectiveKind::scan, 2, {}), scan[0].data(),
                                  [&](std::exception_ptr) { zero = true; });
  EXPECT_TRUE(zero);  // member 0 needs no one
  EXPECT_FALSE(two);
}

}  // namespace
}  // namespace ordo::comm::sim
