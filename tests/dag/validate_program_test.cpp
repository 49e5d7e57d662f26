// Rules of validate() for a program's tables: pools, vars, ops and their var lists.
#include <gtest/gtest.h>

#include <cmath>

#include "runtime/dag/limits.hpp"
#include "runtime/dag/validate.hpp"
#include "tests/dag/sample_jobs.hpp"
#include "tests/dag/test_support.hpp"

namespace ordo::dag {
namespace {

using testing::expect_one_diagnostic;

Job validate_program_job() { return testing::small_valid_job(); }

Program& step(Job& job) { return job.programs[0]; }

TEST(DagValidateProgram, PoolWithoutThreads) {
  Job job = validate_program_job();
  step(job).pools[1].threads = 0;
  expect_one_diagnostic(job, "/programs/0/pools/1/threads",
                        "pool 'comm' has 0 threads; expected from 1 to 4096 threads");
  step(job).pools[1].threads = limits::pool_threads_max + 1;
  expect_one_diagnostic(job, "/programs/0/pools/1/threads", "pool 'comm' has 4097 threads");
}

TEST(DagValidateProgram, TooManyPools) {
  Job job = validate_program_job();
  for (std::uint32_t i = 0; step(job).pools.size() <= limits::pools_max; ++i) {
    step(job).pools.push_back({.name = "extra" + std::to_string(i), .threads = 1});
  }
  expect_one_diagnostic(job, "/programs/0/pools", "1025 pools is over the limit");
}

TEST(DagValidateProgram, DuplicateNamesInEachTable) {
  Job job = validate_program_job();
  step(job).pools[1].name = "compute";
  expect_one_diagnostic(job, "/programs/0/pools/1/name", "duplicate pool name 'compute'");
  job = validate_program_job();
  step(job).vars[2].name = "g0";
  expect_one_diagnostic(job, "/programs/0/vars/2/name",
                        "duplicate var name 'g0' (first used at /programs/0/vars/0/name); "
                        "expected names unique within /programs/0/vars");
  job = validate_program_job();
  step(job).ops[2].name = "cp0";
  expect_one_diagnostic(job, "/programs/0/ops/2/name", "duplicate op name 'cp0'");
}

TEST(DagValidateProgram, InvalidNames) {
  Job job = validate_program_job();
  step(job).vars[0].name = "";
  expect_one_diagnostic(job, "/programs/0/vars/0/name", "name is empty");
  step(job).vars[0].name = std::string(limits::name_bytes_max + 1, 'v');
  expect_one_diagnostic(job, "/programs/0/vars/0/name", "name is 4097 bytes long");
  step(job).vars[0].name = "g\xC3";
  expect_one_diagnostic(job, "/programs/0/vars/0/name", "name is not valid UTF-8 at byte 1");
  step(job).vars[0].name = "g\xC2\x85";
  expect_one_diagnostic(job, "/programs/0/vars/0/name", "control character U+0085");
}

TEST(DagValidateProgram, EnumValueWithoutSpelling) {
  Job job = validate_program_job();
  step(job).vars[0].dtype = static_cast<DType>(99);
  expect_one_diagnostic(job, "/programs/0/vars/0/dtype", "dtype value 99 has no spelling");
  job = validate_program_job();
  step(job).ops[0].kind = static_cast<OpKind>(9);
  expect_one_diagnostic(job, "/programs/0/ops/0/kind", "op kind value 9 has no spelling");
  job = validate_program_job();
  step(job).pools[0].kind = static_cast<PoolKind>(2);
  expect_one_diagnostic(job, "/programs/0/pools/0/kind", "pool kind value 2 has no spelling");
}

TEST(DagValidateProgram, OpPoolOutOfRange) {
  Job job = validate_program_job();
  step(job).ops[0].pool = 7;
  expect_one_diagnostic(job, "/programs/0/ops/0/pool",
                        "pool index 7 is out of range; expected an index from 0 to 1 (there are "
                        "2 pools)");
  step(job).pools.clear();
  const std::vector<Diagnostic> diagnostics = validate(job);
  ASSERT_EQ(diagnostics.size(), 3u) << testing::describe(diagnostics);
  EXPECT_TRUE(testing::contains(diagnostics[0].message, "there are no pools"));
}

TEST(DagValidateProgram, OpVarOutOfRange) {
  Job job = validate_program_job();
  step(job).ops[1].reads = {9};
  expect_one_diagnostic(job, "/programs/0/ops/1/reads/0", "var index 9 is out of range");
}

// Op 1 is made a compute op: the list rules hold for every op, and a copy has its own rule on how
// many vars it names (CopyReadsOneVarAndWritesOne).
TEST(DagValidateProgram, VarListedTwice) {
  Job job = validate_program_job();
  step(job).ops[1].kind = OpKind::compute;
  step(job).ops[1].reads = {0, 0};
  expect_one_diagnostic(job, "/programs/0/ops/1/reads/1",
                        "var 'g0' is listed twice in reads (first at /programs/0/ops/1/reads/0)");
  job = validate_program_job();
  step(job).ops[1].kind = OpKind::compute;
  step(job).ops[1].writes = {1, 1};
  expect_one_diagnostic(job, "/programs/0/ops/1/writes/1", "var 'buf0' is listed twice in writes");
}

TEST(DagValidateProgram, VarBothReadAndWritten) {
  Job job = validate_program_job();
  step(job).ops[1].kind = OpKind::compute;
  step(job).ops[1].reads = {0, 1};
  expect_one_diagnostic(job, "/programs/0/ops/1/writes/0",
                        "var 'buf0' is both read and written by op 'cp0' (read at "
                        "/programs/0/ops/1/reads/1)");
}

TEST(DagValidateProgram, CopyReadsOneVarAndWritesOne) {
  Job job = validate_program_job();
  step(job).ops[1].reads.clear();
  expect_one_diagnostic(job, "/programs/0/ops/1",
                        "copy op 'cp0' reads 0 var(s) and writes 1; expected a copy reads one var "
                        "and writes one, reads several and writes one (pack) or reads one and "
                        "writes several (unpack)");
}

TEST(DagValidateProgram, PackAndUnpackPartsFillTheWhole) {
  Job job = validate_program_job();
  step(job).vars.push_back({.name = "g1", .bytes = 4096});
  step(job).vars.push_back({.name = "bucket", .kind = VarKind::buffer, .bytes = 8192});
  step(job).main[2] = WaitToReadAction{0};  // buf0 is no longer written
  step(job).ops[1].reads = {0, 3};
  step(job).ops[1].writes = {4};
  EXPECT_TRUE(validate(job).empty());  // a pack: g0 and g1 end to end fill the bucket
  step(job).ops[1].reads = {4};
  step(job).ops[1].writes = {0, 3};
  EXPECT_TRUE(validate(job).empty());  // the unpack back
  step(job).vars[4].bytes = 8000;
  expect_one_diagnostic(job, "/programs/0/ops/1",
                        "unpack op 'cp0' moves 8192 bytes of parts but var 'bucket' holds 8000; "
                        "expected parts whose bytes add up to the whole's");
  step(job).ops[1].reads = {0, 3};
  step(job).ops[1].writes = {4, 1};
  expect_one_diagnostic(job, "/programs/0/ops/1", "copy op 'cp0' reads 2 var(s) and writes 2");
  step(job).vars[0].bytes = ~std::uint64_t{0};
  step(job).ops[1].writes = {4};
  expect_one_diagnostic(job, "/programs/0/ops/1",
                        "pack op 'cp0' moves more than 2^64 bytes of parts");
}

// A bucket is reduced by one call of one datatype, so its parts hold the bucket's element type;
// an f64 gradient packed into an f32 bucket would be summed as pairs of floats on every rank.
TEST(DagValidateProgram, PackAndUnpackPartsShareTheWholesDtype) {
  Job job = validate_program_job();
  step(job).vars.push_back({.name = "g1", .bytes = 4096, .dtype = DType::f64});
  step(job).vars.push_back({.name = "bucket", .kind = VarKind::buffer, .bytes = 8192});
  step(job).main[2] = WaitToReadAction{0};  // buf0 is no longer written
  step(job).ops[1].reads = {0, 3};
  step(job).ops[1].writes = {4};
  expect_one_diagnostic(job, "/programs/0/ops/1",
                        "pack op 'cp0' packs var 'g1' of f64 into var 'bucket' of f32; expected "
                        "parts of the whole's dtype (one bucket, one datatype)");
  step(job).ops[1].reads = {4};
  step(job).ops[1].writes = {0, 3};
  expect_one_diagnostic(job, "/programs/0/ops/1",
                        "unpack op 'cp0' unpacks var 'g1' of f64 out of var 'bucket' of f32");
  step(job).vars[3].dtype = DType::f32;
  EXPECT_TRUE(validate(job).empty());
  // A token among the parts carries no data, whatever dtype it names.
  step(job).vars[2].dtype = DType::u8;
  step(job).ops[1].reads = {0, 2, 3};
  step(job).ops[1].writes = {4};
  EXPECT_TRUE(validate(job).empty());
}

TEST(DagValidateProgram, CollectiveKindsNeedASpec) {
  Job job = validate_program_job();
  step(job).ops[2].collective.reset();
  expect_one_diagnostic(job, "/programs/0/ops/2", "collective op 'ar0' has no collective spec");
  step(job).ops[2].kind = OpKind::async_collective;
  expect_one_diagnostic(job, "/programs/0/ops/2",
                        "async_collective op 'ar0' has no collective spec");
}

TEST(DagValidateProgram, ComputeAndCopyOpsHaveNoSpec) {
  Job job = validate_program_job();
  step(job).ops[0].collective = Collective{.kind = CollectiveKind::barrier};
  expect_one_diagnostic(job, "/programs/0/ops/0/collective",
                        "compute op 'bwd0' has a collective spec");
  job = validate_program_job();
  step(job).ops[1].collective = step(job).ops[2].collective;
  expect_one_diagnostic(job, "/programs/0/ops/1/collective", "copy op 'cp0' has a collective spec");
}

TEST(DagValidateProgram, CostMustBeFiniteAndNonNegative) {
  Job job = validate_program_job();
  step(job).ops[0].cost_us = std::nan("");
  expect_one_diagnostic(job, "/programs/0/ops/0/cost_us", "is negative or not finite");
  step(job).ops[0].cost_us = -1.0;
  expect_one_diagnostic(job, "/programs/0/ops/0/cost_us", "is negative or not finite");
  step(job).ops[0].cost_us = INFINITY;
  expect_one_diagnostic(job, "/programs/0/ops/0/cost_us", "is negative or not finite");
}

}  // namespace
}  // namespace ordo::dag
