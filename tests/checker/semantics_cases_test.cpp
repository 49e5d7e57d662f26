// The call-ordering cases of tests/checker/semantics_cases: small jobs whose answers were derived
// from the MPI standard and the runtime's real concurrency before the checker ran (the folder's
// README says how). Every case must get its expected answer: `safe`, `unsafe` with the expected
// property and a witness that the runtime's controlled run reproduces violation for violation,
// or bad input at the rank count verified.
#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "checker/verify/verify.hpp"
#include "checker/witness/trace_io.hpp"
#include "replay/replay.hpp"
#include "runtime/dag/dump_reader.hpp"
#include "runtime/errors/input_error.hpp"
#include "runtime/exec/controlled_run.hpp"
#include "tests/common/case_manifest.hpp"

namespace ordo::checker {
namespace {

const std::string cases_dir = ORDO_SEMANTICS_CASES;

using Case = ordo::testing::ManifestCase;

class SemanticsCase : public ::testing::TestWithParam<Case> {};

TEST_P(SemanticsCase, GetsTheAnswerDerivedFromTheStandard) {
  const Case& c = GetParam();
  std::optional<dag::Job> job;
  try {
    job = dag::read_dump_file(cases_dir + "/" + c.file);
  } catch (const errors::InputError& e) {
    EXPECT_EQ(c.expect, "bad_input") << "the reader rejected it: " << e.what();
    return;
  }
  const std::uint32_t ranks = c.ranks.value_or(job->ranks.value_or(2));
  std::optional<System> model;
  try {
    model.emplace(*job, ranks, *comm::parse_backend(c.backend));
  } catch (const std::exception& e) {
    EXPECT_EQ(c.expect, "bad_input") << "rejected at " << ranks << " ranks: " << e.what();
    return;
  }
  ASSERT_NE(c.expect, "bad_input") << "accepted at " << ranks << " ranks";
  VerifyOptions options;
  options.limits.seconds_max = ordo::testing::case_seconds_max;
  const Verification v = verify(*model, options);
  ASSERT_EQ(to_string(v.result.verdict), c.expect) << human_report(*model, v);
  if (c.expect != "unsafe") return;
  ASSERT_TRUE(v.result.property.has_value());
  if (c.property) {
    EXPECT_EQ(short_name(*v.result.property), *c.property) << human_report(*model, v);
  }
  exec::ControlledRun run(*job, ranks, {}, model->backend());
  const replay::Replay r = replay::replay(run, v.result.witness);
  ASSERT_FALSE(r.illegal) << *r.illegal;
  const std::optional<std::string> problem = replay::problem(r, v.result);
  EXPECT_FALSE(problem) << *problem << "\n" << human_report(*model, v);
}

INSTANTIATE_TEST_SUITE_P(Manifest, SemanticsCase,
                         ::testing::ValuesIn(ordo::testing::read_case_manifest(cases_dir)),
                         ordo::testing::case_test_name);

// Where "every rank count" begins: a job without a fixed count whose bcast root is 3 is valid
// from 4 ranks only, and a safe verdict says so.
TEST(SemanticsCase, EveryRankCountStartsWhereTheJobIsValid) {
  const dag::Job job = dag::read_dump_file(cases_dir + "/c3_free_root3_cli4_main.json");
  ASSERT_FALSE(job.ranks.has_value());
  const System model(job, 4);
  EXPECT_EQ(model.valid_from(), 4u);
  const Verification v = verify(model, VerifyOptions{});
  ASSERT_EQ(v.result.verdict, Verdict::safe);
  if (v.every_rank_count) {
    EXPECT_NE(human_report(model, v).find("every rank count from 4"), std::string::npos)
        << human_report(model, v);
  }
  EXPECT_THROW(System(job, 3), errors::InputError);
}

// A reduce_scatter of 4 elements splits at 1, 2 and 4 ranks only: "every rank count" is those
// counts, and any other is bad input that names them.
TEST(SemanticsCase, EveryRankCountIsTheDivisorsOfABlockedCount) {
  const dag::Job job = dag::read_dump_file(cases_dir + "/c7_reduce_scatter_count4_default.json");
  ASSERT_FALSE(job.ranks.has_value());
  const System model(job, 2);
  EXPECT_EQ(model.valid_from(), 1u);
  EXPECT_EQ(model.valid_divides(), 4u);
  const Verification v = verify(model, VerifyOptions{});
  ASSERT_EQ(v.result.verdict, Verdict::safe);
  if (v.every_rank_count) {
    EXPECT_NE(human_report(model, v).find("every rank count that divides 4"), std::string::npos)
        << human_report(model, v);
  }
  try {
    const System at3(job, 3);
    FAIL() << "a reduce_scatter of 4 elements was accepted at 3 ranks";
  } catch (const errors::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("or a rank count that divides 4"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ordo::checker
