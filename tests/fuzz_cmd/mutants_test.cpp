// Mutants of a job (fuzz/lib/mutants.hpp): valid, each one change of the kind its name
// says, every kind taken in turn, the same for the same seed, and invalid candidates counted.
#include "fuzz/lib/mutants.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "checker/system/system.hpp"
#include "runtime/dag/validate.hpp"
#include "runtime/designs/step_builder.hpp"
#include "tests/fuzz_cmd/fuzz_jobs.hpp"

namespace ordo::fuzz::testing {
namespace {

using designs::DesignKind;

// "mutant-03-drop-read" -> "drop-read".
std::string kind_of(const FuzzCase& c) { return c.name.substr(std::string("mutant-00-").size()); }

TEST(FuzzMutants, EveryMutantIsValidAndEveryKindTakesItsTurn) {
  const dag::Job job = mlp_step(DesignKind::depcha, 2);
  const Mutants m = mutants_of(job, 2, comm::Backend::mpi, 1, 10);
  ASSERT_EQ(m.cases.size(), 10u);
  std::set<std::string> names;
  std::set<std::string> kinds;
  for (const FuzzCase& c : m.cases) {
    EXPECT_TRUE(dag::validate(c.job).empty()) << c.name;
    EXPECT_NO_THROW(checker::System(c.job, c.ranks)) << c.name;
    EXPECT_FALSE(c.change.empty()) << c.name;
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    kinds.insert(kind_of(c) == "drop-write" ? "drop-read" : kind_of(c));
  }
  EXPECT_EQ(kinds, (std::set<std::string>{"swap-submits", "drop-read", "shared-token",
                                          "pool-threads", "ranks"}));
}

TEST(FuzzMutants, EachMutantIsTheOneChangeItsNameSays) {
  const dag::Job job = mlp_step(DesignKind::depcha, 2);
  const dag::Program& p = job.programs.at(0);
  for (const FuzzCase& c : mutants_of(job, 2, comm::Backend::mpi, 3, 10).cases) {
    const dag::Program& q = c.job.programs.at(0);
    const std::string kind = kind_of(c);
    if (kind == "ranks") {
      EXPECT_EQ(c.job, job);
      EXPECT_NE(c.ranks, 2u);
      continue;
    }
    EXPECT_EQ(c.ranks, 2u) << c.name;
    if (kind == "swap-submits") {
      std::vector<std::size_t> moved;
      for (std::size_t i = 0; i < p.main.size(); ++i) {
        if (!(p.main[i] == q.main[i])) moved.push_back(i);
      }
      ASSERT_EQ(moved.size(), 2u) << c.name;
      EXPECT_EQ(moved[1], moved[0] + 1) << c.name;
    } else if (kind == "drop-read" || kind == "drop-write") {
      std::size_t changed = 0;
      for (std::size_t o = 0; o < p.ops.size(); ++o) {
        const std::size_t before = p.ops[o].reads.size() + p.ops[o].writes.size();
        const std::size_t after = q.ops[o].reads.size() + q.ops[o].writes.size();
        if (before != after) {
          EXPECT_EQ(after + 1, before) << c.name;
          ++changed;
        }
      }
      EXPECT_EQ(changed, 1u) << c.name;
    } else if (kind == "shared-token") {
      ASSERT_EQ(q.vars.size(), p.vars.size() + 1) << c.name;
      EXPECT_EQ(q.vars.back().kind, dag::VarKind::token);
      const auto token = static_cast<dag::VarId>(p.vars.size());
      const auto writers = std::count_if(q.ops.begin(), q.ops.end(), [token](const dag::Op& op) {
        return std::find(op.writes.begin(), op.writes.end(), token) != op.writes.end();
      });
      EXPECT_EQ(writers, 2) << c.name;
    } else if (kind == "pool-threads") {
      std::size_t changed = 0;
      for (std::size_t i = 0; i < p.pools.size(); ++i) {
        if (p.pools[i].threads != q.pools[i].threads) {
          EXPECT_GE(q.pools[i].threads, 1u);
          EXPECT_LE(q.pools[i].threads, 4u);
          ++changed;
        }
      }
      EXPECT_EQ(changed, 1u) << c.name;
    } else {
      ADD_FAILURE() << "unknown kind in " << c.name;
    }
  }
}

TEST(FuzzMutants, OneSeedGivesOneSetOfMutants) {
  const dag::Job job = mlp_step(DesignKind::funnel, 2);
  const auto changes = [&job](std::uint64_t seed) {
    std::vector<std::string> out;
    for (const FuzzCase& c : mutants_of(job, 2, comm::Backend::mpi, seed, 8).cases) {
      out.push_back(c.name + ": " + c.change);
    }
    return out;
  };
  EXPECT_EQ(changes(5), changes(5));
  EXPECT_NE(changes(5), changes(6));
}

TEST(FuzzMutants, AJobWrittenForItsRankCountKeepsIt) {
  designs::DesignConfig c;
  c.kind = DesignKind::sharded;
  c.shards = 2;
  const dag::Job job = designs::build_step_job(networks::mlp(2, 8, 1.0), c, {});
  ASSERT_TRUE(job.ranks.has_value());
  for (const FuzzCase& m : mutants_of(job, 2, comm::Backend::mpi, 1, 20).cases) {
    EXPECT_NE(kind_of(m), "ranks");
    EXPECT_EQ(m.ranks, 2u);
  }
}

TEST(FuzzMutants, InvalidCandidatesAreSkippedAndCounted) {
  // Asking for more than there are takes every candidate: dropping a collective's buffer, say,
  // leaves a job the validator refuses.
  const dag::Job job = mlp_step(DesignKind::depcha, 2);
  const Mutants m = mutants_of(job, 2, comm::Backend::mpi, 1, 10000);
  EXPECT_GT(m.invalid, 0u);
  EXPECT_GT(m.cases.size(), 10u);
  for (const FuzzCase& c : m.cases) EXPECT_TRUE(dag::validate(c.job).empty()) << c.name;
}

}  // namespace
}  // namespace ordo::fuzz::testing
