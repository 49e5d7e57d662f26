#include "runtime/dag/names.hpp"

#include <gtest/gtest.h>

#include "runtime/dag/program.hpp"

namespace ordo::dag {
namespace {

// Every spelling parses back to the enumerator it came from, in declaration order.
template <typename Enum>
void expect_round_trip(std::optional<Enum> (*parse)(std::string_view)) {
  const std::span<const std::string_view> names = spellings<Enum>();
  ASSERT_FALSE(names.empty());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto value = static_cast<Enum>(i);
    EXPECT_EQ(to_string(value), names[i]);
    EXPECT_EQ(parse(names[i]), value) << names[i];
  }
  EXPECT_EQ(parse(""), std::nullopt);
  EXPECT_EQ(parse("nonsense"), std::nullopt);
  EXPECT_EQ(to_string(static_cast<Enum>(names.size())), "?");
}

TEST(DagNames, VarKindsRoundTrip) { expect_round_trip<VarKind>(parse_var_kind); }
TEST(DagNames, DTypesRoundTrip) { expect_round_trip<DType>(parse_dtype); }
TEST(DagNames, PoolKindsRoundTrip) { expect_round_trip<PoolKind>(parse_pool_kind); }
TEST(DagNames, OpKindsRoundTrip) { expect_round_trip<OpKind>(parse_op_kind); }
TEST(DagNames, CollectiveKindsRoundTrip) {
  expect_round_trip<CollectiveKind>(parse_collective_kind);
}
TEST(DagNames, ReductionsRoundTrip) { expect_round_trip<Reduction>(parse_reduction); }

TEST(DagNames, SpellingsAreTheDumpFormats) {
  EXPECT_EQ(to_string(VarKind::token), "token");
  EXPECT_EQ(to_string(DType::bf16), "bf16");
  EXPECT_EQ(to_string(PoolKind::priority), "priority");
  EXPECT_EQ(to_string(OpKind::async_collective), "async_collective");
  EXPECT_EQ(to_string(CollectiveKind::bcast), "bcast");
  EXPECT_EQ(to_string(Reduction::none), "none");
}

TEST(DagNames, ParsingIsCaseSensitive) {
  EXPECT_EQ(parse_dtype("F32"), std::nullopt);
  EXPECT_EQ(parse_op_kind("Compute"), std::nullopt);
  EXPECT_EQ(parse_reduction("sum "), std::nullopt);
}

TEST(DagProgram, DTypeBytes) {
  EXPECT_EQ(dtype_bytes(DType::i8), 1u);
  EXPECT_EQ(dtype_bytes(DType::u8), 1u);
  EXPECT_EQ(dtype_bytes(DType::f16), 2u);
  EXPECT_EQ(dtype_bytes(DType::bf16), 2u);
  EXPECT_EQ(dtype_bytes(DType::f32), 4u);
  EXPECT_EQ(dtype_bytes(DType::i32), 4u);
  EXPECT_EQ(dtype_bytes(DType::f64), 8u);
  EXPECT_EQ(dtype_bytes(DType::i64), 8u);
}

TEST(DagProgram, IsCollective) {
  EXPECT_FALSE(is_collective(OpKind::compute));
  EXPECT_FALSE(is_collective(OpKind::copy));
  EXPECT_TRUE(is_collective(OpKind::collective));
  EXPECT_TRUE(is_collective(OpKind::async_collective));
}

TEST(DagProgram, ProgramOfFindsTheProgramOfEachRank) {
  Job job{.ranks = 3};
  job.programs = {Program{.name = "a", .ranks = std::vector<Rank>{0, 2}},
                  Program{.name = "b", .ranks = std::vector<Rank>{1}}};
  EXPECT_EQ(program_of(job, 0), &job.programs[0]);
  EXPECT_EQ(program_of(job, 1), &job.programs[1]);
  EXPECT_EQ(program_of(job, 2), &job.programs[0]);
  EXPECT_EQ(program_of(job, 3), nullptr);
}

TEST(DagProgram, ProgramOfAnSpmdJobIsItsProgramAtAnyRank) {
  Job job;
  job.programs = {Program{.name = "step"}};
  EXPECT_EQ(program_of(job, 0), &job.programs[0]);
  EXPECT_EQ(program_of(job, 1000), &job.programs[0]);
  job.ranks = 4;
  EXPECT_EQ(program_of(job, 3), &job.programs[0]);
  EXPECT_EQ(program_of(job, 4), nullptr);
  EXPECT_EQ(program_of(Job{}, 0), nullptr);
}

// programs_by_rank is program_of for every rank at once: lists, SPMD, a rank listed twice (the
// first list wins), ranks past the job's count, and none at all.
TEST(DagProgram, ProgramsByRankIsProgramOfAtEveryRank) {
  Job mixed{.ranks = 6};
  mixed.programs = {Program{.name = "a", .ranks = std::vector<Rank>{4, 0, 9}},
                    Program{.name = "spmd"},
                    Program{.name = "b", .ranks = std::vector<Rank>{1, 4}}};
  Job spmd;
  spmd.programs = {Program{.name = "step"}};
  Job lists{.ranks = 3};
  lists.programs = {Program{.name = "a", .ranks = std::vector<Rank>{0, 2}}};
  const Job none;
  for (const Job* job : std::vector<const Job*>{&mixed, &spmd, &lists, &none}) {
    const Job& j = *job;
    for (const std::uint32_t ranks : {0u, 1u, 3u, 8u}) {
      const std::vector<const Program*> by_rank = programs_by_rank(j, ranks);
      ASSERT_EQ(by_rank.size(), ranks);
      for (Rank r = 0; r < ranks; ++r) EXPECT_EQ(by_rank[r], program_of(j, r)) << r;
    }
  }
}

}  // namespace
}  // namespace ordo::dag
