// write_dump then read_dump gives back the same job, construct by construct.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "runtime/dag/dump_reader.hpp"
#include "runtime/dag/dump_writer.hpp"
#include "runtime/dag/names.hpp"
#include "runtime/dag/validate.hpp"
#include "tests/dag/sample_jobs.hpp"
#include "tests/dag/test_support.hpp"

namespace ordo::dag {
namespace {

using testing::describe;

void expect_round_trip(const Job& job) {
  const std::string text = write_dump(job);
  const Job back = read_dump(text);
  EXPECT_EQ(back, job) << text;
  EXPECT_EQ(write_dump(back), text) << "writing is not a fixpoint";
}

Op& first_op(Job& job) { return job.programs.at(0).ops.at(0); }

TEST(DagRoundTrip, EveryConstructJob) {
  const Job job = testing::every_construct_job();
  ASSERT_TRUE(validate(job).empty()) << describe(validate(job));
  expect_round_trip(job);
}

TEST(DagRoundTrip, SpmdJobWithoutRankCount) {
  const Job job = testing::spmd_job();
  ASSERT_TRUE(validate(job).empty()) << describe(validate(job));
  ASSERT_FALSE(job.ranks.has_value());
  ASSERT_FALSE(job.programs[0].ranks.has_value());
  expect_round_trip(job);
}

TEST(DagRoundTrip, EveryVarKindAndDType) {
  Job job = testing::small_valid_job();
  for (std::size_t kind = 0; kind < spellings<VarKind>().size(); ++kind) {
    for (std::size_t dtype = 0; dtype < spellings<DType>().size(); ++dtype) {
      job.programs[0].vars[0].kind = static_cast<VarKind>(kind);
      job.programs[0].vars[0].dtype = static_cast<DType>(dtype);
      job.programs[0].ops[2].collective->dtype = static_cast<DType>(dtype);
      expect_round_trip(job);
    }
  }
}

TEST(DagRoundTrip, EveryPoolKindAndOpKind) {
  Job job = testing::small_valid_job();
  for (std::size_t kind = 0; kind < spellings<PoolKind>().size(); ++kind) {
    job.programs[0].pools[1].kind = static_cast<PoolKind>(kind);
    expect_round_trip(job);
  }
  for (std::size_t kind = 0; kind < spellings<OpKind>().size(); ++kind) {
    first_op(job).kind = static_cast<OpKind>(kind);
    expect_round_trip(job);
  }
}

TEST(DagRoundTrip, EveryCollectiveKindAndReduction) {
  Job job = testing::small_valid_job();
  Collective& collective = *job.programs[0].ops[2].collective;
  for (std::size_t kind = 0; kind < spellings<CollectiveKind>().size(); ++kind) {
    for (std::size_t reduction = 0; reduction < spellings<Reduction>().size(); ++reduction) {
      collective.kind = static_cast<CollectiveKind>(kind);
      collective.reduction = static_cast<Reduction>(reduction);
      expect_round_trip(job);
    }
  }
}

TEST(DagRoundTrip, EveryActionKind) {
  Job job = testing::small_valid_job();
  const Collective bcast{.kind = CollectiveKind::bcast,
                         .comm = 1,
                         .key = 5,
                         .count = 3,
                         .dtype = DType::i32,
                         .root = 1};
  job.programs[0].main = {
      SubmitAction{2}, WaitToReadAction{1}, WaitForAllAction{}, CollectiveAction{bcast, VarId{0}},
      CollectiveAction{Collective{.kind = CollectiveKind::barrier}, std::nullopt}};
  expect_round_trip(job);
}

TEST(DagRoundTrip, OptionalFieldsAbsentAndPresent) {
  Job job = testing::small_valid_job();
  job.ranks.reset();
  expect_round_trip(job);
  job.ranks = 7;
  job.comms[0].members = std::vector<Rank>{};
  job.comms[1].members.reset();
  job.programs[0].ranks = std::vector<Rank>{};
  expect_round_trip(job);
  job.programs[0].ranks = std::vector<Rank>{6, 0, 3};
  Collective& collective = *job.programs[0].ops[2].collective;
  collective.root = 0;
  expect_round_trip(job);
  collective.root.reset();
  job.programs[0].ops[2].collective.reset();
  first_op(job).collective = Collective{.kind = CollectiveKind::barrier};
  expect_round_trip(job);
}

TEST(DagRoundTrip, DoublesAreExact) {
  Job job = testing::small_valid_job();
  const double costs[] = {0.0,
                          -0.0,
                          0.1,
                          1.0 / 3.0,
                          12.5,
                          1e-300,
                          std::numeric_limits<double>::denorm_min(),
                          std::numeric_limits<double>::max(),
                          9007199254740993.0,
                          123456789.123456789};
  for (const double cost : costs) {
    first_op(job).cost_us = cost;
    const Job back = read_dump(write_dump(job));
    EXPECT_EQ(back.programs[0].ops[0].cost_us, cost);
    EXPECT_EQ(std::signbit(back.programs[0].ops[0].cost_us), std::signbit(cost));
  }
}

TEST(DagRoundTrip, IntegerExtremes) {
  Job job = testing::small_valid_job();
  Collective& collective = *job.programs[0].ops[2].collective;
  collective.count = std::numeric_limits<std::uint64_t>::max();
  collective.key = std::numeric_limits<std::int64_t>::min();
  job.programs[0].vars[1].bytes = std::numeric_limits<std::uint64_t>::max();
  first_op(job).priority = std::numeric_limits<std::int32_t>::min();
  expect_round_trip(job);
  collective.key = std::numeric_limits<std::int64_t>::max();
  first_op(job).priority = std::numeric_limits<std::int32_t>::max();
  job.ranks = 1u << 20;
  job.programs[0].pools[0].threads = 4096;
  expect_round_trip(job);
}

TEST(DagRoundTrip, NamesWithCharactersJsonEscapes) {
  Job job = testing::small_valid_job();
  job.programs[0].name = "quote \" backslash \\ slash / tilde ~";
  job.programs[0].vars[0].name = "grad \xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
  job.comms[1].name = "~0/~1";
  ASSERT_TRUE(validate(job).empty()) << describe(validate(job));
  expect_round_trip(job);
}

TEST(DagRoundTrip, EmptyTables) {
  Job job{.ranks = 1};
  expect_round_trip(job);
  job.programs.push_back(Program{.name = "idle"});
  expect_round_trip(job);
}

}  // namespace
}  // namespace ordo::dag
