// Rules of validate() for collective specs, on an op's spec and on a main-thread call's.
#include <gtest/gtest.h>

#include <limits>

#include "runtime/dag/validate.hpp"
#include "tests/dag/sample_jobs.hpp"
#include "tests/dag/test_support.hpp"

namespace ordo::dag {
namespace {

using testing::expect_one_diagnostic;

Job validate_collective_job() { return testing::small_valid_job(); }

// The allreduce op's spec, at /programs/0/ops/2/collective: comm "pair", 1024 f32 into buf0.
Collective& op_spec(Job& job) { return *job.programs[0].ops[2].collective; }

// The main thread's barrier, at /programs/0/main/4/collective: comm "world".
Collective& barrier_spec(Job& job) {
  return std::get<CollectiveAction>(job.programs[0].main[4]).collective;
}

TEST(DagValidateCollective, CommunicatorIndexOutOfRange) {
  Job job = validate_collective_job();
  op_spec(job).comm = 5;
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/comm",
                        "communicator index 5 is out of range; expected an index from 0 to 1 "
                        "(there are 2 communicators)");
}

TEST(DagValidateCollective, AllreduceWithoutReduction) {
  Job job = validate_collective_job();
  op_spec(job).reduction = Reduction::none;
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/reduction",
                        "allreduce has reduction none; expected one of: sum, prod, min, max");
}

TEST(DagValidateCollective, BarrierAndBcastDoNotReduce) {
  Job job = validate_collective_job();
  barrier_spec(job).reduction = Reduction::max;
  expect_one_diagnostic(job, "/programs/0/main/4/collective/reduction",
                        "barrier has reduction max; expected reduction none");
  job = validate_collective_job();
  op_spec(job) = Collective{
      .kind = CollectiveKind::bcast, .comm = 1, .count = 4, .reduction = Reduction::sum, .root = 0};
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/reduction", "bcast has reduction sum");
}

TEST(DagValidateCollective, BcastWithoutRoot) {
  Job job = validate_collective_job();
  op_spec(job) = Collective{.kind = CollectiveKind::bcast, .comm = 1, .count = 4};
  expect_one_diagnostic(job, "/programs/0/ops/2/collective", "bcast has no root");
}

TEST(DagValidateCollective, BcastRootOutsideTheCommunicator) {
  Job job = validate_collective_job();
  op_spec(job) = Collective{.kind = CollectiveKind::bcast, .comm = 1, .count = 4, .root = 1};
  EXPECT_TRUE(validate(job).empty()) << testing::describe(validate(job));
  op_spec(job).root = 2;
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/root",
                        "root 2 is not a rank of the communicator; expected a root from 0 to 1 "
                        "(the communicator has 2 ranks)");
}

TEST(DagValidateCollective, RootOfACommunicatorOfUnknownSizeIsNotChecked) {
  Job job = testing::spmd_job();
  *job.programs[0].ops[1].collective =
      Collective{.kind = CollectiveKind::bcast, .comm = 0, .count = 4, .root = 1000};
  EXPECT_TRUE(validate(job).empty()) << testing::describe(validate(job));
}

TEST(DagValidateCollective, RootOnlyOnBcast) {
  Job job = validate_collective_job();
  op_spec(job).root = 0;
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/root", "allreduce has a root");
}

TEST(DagValidateCollective, ReduceNeedsARootAndAReduction) {
  Job job = validate_collective_job();
  op_spec(job) = Collective{
      .kind = CollectiveKind::reduce, .comm = 1, .count = 4, .reduction = Reduction::sum};
  expect_one_diagnostic(job, "/programs/0/ops/2/collective",
                        "reduce has no root; expected a 'root' rank of the communicator");
  op_spec(job).root = 1;
  EXPECT_TRUE(validate(job).empty()) << testing::describe(validate(job));
  op_spec(job).reduction = Reduction::none;
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/reduction",
                        "reduce has reduction none; expected one of: sum, prod, min, max");
  op_spec(job).reduction = Reduction::min;
  op_spec(job).root = 2;
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/root",
                        "root 2 is not a rank of the communicator; expected a root from 0 to 1");
}

TEST(DagValidateCollective, ReduceScatterNeedsAReductionAndNoRoot) {
  Job job = validate_collective_job();
  op_spec(job) = Collective{.kind = CollectiveKind::reduce_scatter, .comm = 1, .count = 4};
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/reduction",
                        "reduce_scatter has reduction none; expected one of: sum, prod, min, max");
  op_spec(job).reduction = Reduction::sum;
  EXPECT_TRUE(validate(job).empty()) << testing::describe(validate(job));
  op_spec(job).root = 0;
  expect_one_diagnostic(
      job, "/programs/0/ops/2/collective/root",
      "reduce_scatter has a root; expected a root on bcast, reduce, gather and scatter only");
}

TEST(DagValidateCollective, AllgatherIsNotAReduction) {
  Job job = validate_collective_job();
  op_spec(job) = Collective{
      .kind = CollectiveKind::allgather, .comm = 1, .count = 4, .reduction = Reduction::sum};
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/reduction",
                        "allgather has reduction sum; expected reduction none (only allreduce, "
                        "reduce, reduce_scatter, scan and exscan reduce)");
}

// Communicator 'pair' has 2 ranks: a count of 5 has no 2 equal blocks.
TEST(DagValidateCollective, BlocksMustSplitAtTheCommunicatorsSize) {
  Job job = validate_collective_job();
  op_spec(job) = Collective{.kind = CollectiveKind::allgather, .comm = 1, .count = 5};
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/count",
                        "allgather of 5 elements does not split into blocks for the "
                        "communicator's 2 ranks; expected a count that is a multiple of 2 (each "
                        "rank's block is count / 2)");
  op_spec(job) = Collective{
      .kind = CollectiveKind::reduce_scatter, .comm = 1, .count = 5, .reduction = Reduction::sum};
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/count",
                        "reduce_scatter of 5 elements does not split");
}

// The whole count lives in the op's buffer var, blocks of every member included.
TEST(DagValidateCollective, TheBufferHoldsEveryBlock) {
  Job job = validate_collective_job();
  op_spec(job) = Collective{.kind = CollectiveKind::allgather, .comm = 1, .count = 1026};
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/count",
                        "allgather of 1026 f32 elements needs 4104 bytes but var 'buf0' has "
                        "4096 bytes");
}

// Like a root, divisibility waits for a size: an SPMD job without a rank count is checked when
// it runs or is verified at one (docs/semantics.md, V1).
TEST(DagValidateCollective, BlocksOfACommunicatorOfUnknownSizeAreCheckedAtARankCount) {
  Job job = testing::spmd_job();
  *job.programs[0].ops[1].collective = Collective{
      .kind = CollectiveKind::reduce_scatter, .comm = 0, .count = 4, .reduction = Reduction::sum};
  EXPECT_TRUE(validate(job).empty()) << testing::describe(validate(job));
  job.ranks = 3;
  expect_one_diagnostic(job, "/programs/0/ops/1/collective/count",
                        "reduce_scatter of 4 elements does not split into blocks for the "
                        "communicator's 3 ranks");
  job.ranks = 4;
  EXPECT_TRUE(validate(job).empty()) << testing::describe(validate(job));
}

TEST(DagValidateCollective, BarrierWithACount) {
  Job job = validate_collective_job();
  barrier_spec(job).count = 5;
  expect_one_diagnostic(job, "/programs/0/main/4/collective/count",
                        "barrier has count 5; expected count 0");
}

TEST(DagValidateCollective, OpBufferTooSmall) {
  Job job = validate_collective_job();
  op_spec(job).count = 1025;
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/count",
                        "allreduce of 1025 f32 elements needs 4100 bytes but var 'buf0' has "
                        "4096 bytes");
  op_spec(job).count = std::numeric_limits<std::uint64_t>::max() / 2;
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/count", "needs more than 2^64 bytes");
}

// A slice of the buffer: offset plus count elements must lie within the var; no buffer, no
// offset. Each rank's offset is its own (MPI sees a pointer), so only the size is checked.
TEST(DagValidateCollective, ASliceLiesWithinItsBuffer) {
  Job job = validate_collective_job();
  op_spec(job).count = 24;
  op_spec(job).offset = 1000;
  EXPECT_TRUE(validate(job).empty()) << testing::describe(validate(job));
  op_spec(job).offset = 1001;
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/offset",
                        "allreduce of 24 f32 elements from element 1001 needs 4100 bytes but var "
                        "'buf0' has 4096 bytes");
  op_spec(job).offset = std::numeric_limits<std::uint64_t>::max() - 2;
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/offset", "needs more than 2^64 bytes");
  barrier_spec(job).offset = 3;
  op_spec(job).offset = 0;
  expect_one_diagnostic(job, "/programs/0/main/4/collective/offset",
                        "barrier has offset 3 but no buffer var to slice");
}

// The runtime fills the first data var the op writes, so that is the one whose size counts.
TEST(DagValidateCollective, SizeIsCheckedOnTheFirstDataVarWritten) {
  Job job = validate_collective_job();
  op_spec(job).count = 1u << 30;
  job.programs[0].ops[2].writes = {1, 2};
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/count", "but var 'buf0' has");
}

TEST(DagValidateCollective, CommunicatorMustContainTheProgramsRanks) {
  Job job = validate_collective_job();
  job.ranks = 3;
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/comm",
                        "rank 2 runs program 'step' but is not a member of communicator 'pair'");
  job.ranks = 5;
  expect_one_diagnostic(job, "/programs/0/ops/2/collective/comm",
                        "(nor are 2 other ranks running it)");
}

TEST(DagValidateCollective, MembershipIsCheckedPerProgram) {
  Job job = validate_collective_job();
  job.ranks = 3;
  job.programs[0].ranks = std::vector<Rank>{1, 0};
  Program other = job.programs[0];
  other.name = "rank2";
  other.ranks = std::vector<Rank>{2};
  job.programs.push_back(other);
  expect_one_diagnostic(job, "/programs/1/ops/2/collective/comm",
                        "rank 2 runs program 'rank2' but is not a member of communicator 'pair'");
}

TEST(DagValidateCollective, EnumValuesWithoutSpelling) {
  Job job = validate_collective_job();
  op_spec(job).kind = static_cast<CollectiveKind>(dag::call_kind_count + 1);
  expect_one_diagnostic(
      job, "/programs/0/ops/2/collective/kind",
      "collective kind value " + std::to_string(dag::call_kind_count + 1) + " has no spelling");
  job = validate_collective_job();
  barrier_spec(job).reduction = static_cast<Reduction>(5);
  expect_one_diagnostic(job, "/programs/0/main/4/collective/reduction",
                        "reduction value 5 has no spelling");
}

}  // namespace
}  // namespace ordo::dag
