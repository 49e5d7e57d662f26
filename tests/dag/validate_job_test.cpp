// Job-level rules of validate(): rank count, communicators, and which program runs on each
// rank. Each test breaks one rule of a valid job and expects exactly that diagnostic.
#include <gtest/gtest.h>

#include "runtime/dag/dump_error.hpp"
#include "runtime/dag/limits.hpp"
#include "runtime/dag/validate.hpp"
#include "tests/dag/sample_jobs.hpp"
#include "tests/dag/test_support.hpp"

namespace ordo::dag {
namespace {

using testing::describe;
using testing::expect_one_diagnostic;

Job validate_job_job() { return testing::small_valid_job(); }

// A second program, so that programs can split the ranks between them.
Job two_program_job(std::vector<Rank> first, std::vector<Rank> second) {
  Job job = validate_job_job();
  job.programs[0].ranks = std::move(first);
  Program other = job.programs[0];
  other.name = "other";
  other.ranks = std::move(second);
  job.programs.push_back(other);
  return job;
}

TEST(DagValidateJob, ValidJobsHaveNoDiagnostics) {
  for (const Job& job : {testing::small_valid_job(), testing::every_construct_job(),
                         testing::spmd_job(), two_program_job({0}, {1})}) {
    EXPECT_TRUE(validate(job).empty()) << describe(validate(job));
  }
}

TEST(DagValidateJob, NoPrograms) {
  Job job = validate_job_job();
  job.programs.clear();
  expect_one_diagnostic(job, "/programs", "job has no programs; expected at least one program");
}

TEST(DagValidateJob, RankCountOutOfRange) {
  Job job = validate_job_job();
  job.ranks = 0;
  expect_one_diagnostic(job, "/ranks", "job has 0 ranks; expected from 1 to 1048576 ranks");
  job.ranks = limits::ranks_max + 1;
  expect_one_diagnostic(job, "/ranks", "job has 1048577 ranks");
}

TEST(DagValidateJob, CommunicatorWithoutMembers) {
  Job job = validate_job_job();
  job.comms.push_back({.name = "spare", .members = std::vector<Rank>{}});
  expect_one_diagnostic(job, "/comms/2/members", "communicator 'spare' has no members");
}

TEST(DagValidateJob, MemberOutOfRange) {
  Job job = validate_job_job();
  job.comms.push_back({.name = "spare", .members = std::vector<Rank>{0, 2}});
  expect_one_diagnostic(job, "/comms/2/members/1",
                        "rank 2 is out of range; expected a rank from 0 to 1 (the job has 2 "
                        "ranks)");
}

TEST(DagValidateJob, MemberListedTwice) {
  Job job = validate_job_job();
  job.comms.push_back({.name = "spare", .members = std::vector<Rank>{1, 1}});
  expect_one_diagnostic(job, "/comms/2/members/1",
                        "rank 1 is listed twice (first at /comms/2/members/0)");
}

TEST(DagValidateJob, DuplicateAndInvalidCommunicatorNames) {
  Job job = validate_job_job();
  job.comms.push_back({.name = "world"});
  expect_one_diagnostic(job, "/comms/2/name",
                        "duplicate communicator name 'world' (first used at /comms/0/name)");
  job.comms[2].name = "tab\there";
  expect_one_diagnostic(job, "/comms/2/name", "name holds control character U+0009 at byte 3");
}

TEST(DagValidateJob, DuplicateProgramName) {
  Job job = two_program_job({0}, {1});
  job.programs[1].name = "step";
  expect_one_diagnostic(job, "/programs/1/name", "duplicate program name 'step'");
}

TEST(DagValidateJob, RanklessJobWithTwoPrograms) {
  Job job = validate_job_job();
  job.ranks.reset();
  job.comms[1].members.reset();
  job.programs.push_back(job.programs[0]);
  job.programs[1].name = "again";
  expect_one_diagnostic(job, "/ranks", "job has no rank count but 2 programs");
}

TEST(DagValidateJob, RanklessJobWithARankList) {
  Job job = validate_job_job();
  job.ranks.reset();
  job.comms[1].members.reset();
  job.programs[0].ranks = std::vector<Rank>{0};
  expect_one_diagnostic(job, "/programs/0/ranks",
                        "program 'step' lists ranks but the job has no rank count");
}

TEST(DagValidateJob, RanklessJobWithAMemberList) {
  Job job = validate_job_job();
  job.ranks.reset();
  expect_one_diagnostic(job, "/comms/1/members",
                        "communicator 'pair' lists members but the job has no rank count");
}

TEST(DagValidateJob, AllRanksProgramBesideAnother) {
  Job job = two_program_job({0}, {1});
  job.programs[0].ranks.reset();
  expect_one_diagnostic(job, "/programs/0/ranks",
                        "program 'step' runs on all ranks but is not the only program");
}

TEST(DagValidateJob, RankRunByTwoPrograms) {
  const Job job = two_program_job({0, 1}, {1});
  expect_one_diagnostic(job, "/programs/1/ranks/0",
                        "rank 1 is also run by program 'step' (at /programs/0/ranks/1)");
}

TEST(DagValidateJob, RankListedTwiceInOneProgram) {
  Job job = validate_job_job();
  job.programs[0].ranks = std::vector<Rank>{0, 1, 0};
  expect_one_diagnostic(job, "/programs/0/ranks/2",
                        "rank 0 is listed twice (first at /programs/0/ranks/0)");
}

TEST(DagValidateJob, RankRunByNoProgram) {
  Job job = validate_job_job();
  job.ranks = 3;
  job.comms[1].members = std::vector<Rank>{0, 1};
  job.programs[0].ranks = std::vector<Rank>{0, 1};
  expect_one_diagnostic(job, "/programs", "rank 2 is run by no program; expected every rank");
  job.ranks = 5;
  expect_one_diagnostic(job, "/programs", "rank 2 is run by no program (nor are 2 other ranks)");
}

TEST(DagValidateJob, ProgramRankOutOfRange) {
  Job job = validate_job_job();
  job.programs[0].ranks = std::vector<Rank>{0, 1, 2};
  expect_one_diagnostic(job, "/programs/0/ranks/2", "rank 2 is out of range");
}

TEST(DagValidateJob, ProgramOnNoRank) {
  const Job job = two_program_job({}, {0, 1});
  expect_one_diagnostic(job, "/programs/0/ranks", "program 'step' runs on no rank");
}

TEST(DagValidateJob, TooManyCommunicators) {
  Job job = validate_job_job();
  for (std::uint32_t i = 0; job.comms.size() <= limits::comms_max; ++i) {
    job.comms.push_back({.name = "c" + std::to_string(i)});
  }
  expect_one_diagnostic(job, "/comms", "65537 communicators is over the limit");
}

TEST(DagValidateJob, ValidateOrThrowReportsTheFirstAndCountsTheRest) {
  Job job = validate_job_job();
  EXPECT_NO_THROW(validate_or_throw(job));
  job.ranks = 0;
  job.programs[0].pools[0].threads = 0;
  try {
    validate_or_throw(job);
    FAIL() << "an invalid job passed";
  } catch (const DumpError& error) {
    EXPECT_EQ(error.where(), "/ranks");
    EXPECT_EQ(error.problem(), "job has 0 ranks (and 1 more problem)");
    EXPECT_EQ(error.expected(), "from 1 to 1048576 ranks");
  }
}

}  // namespace
}  // namespace ordo::dag
