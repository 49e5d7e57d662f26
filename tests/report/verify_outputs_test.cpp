// `ordo verify`'s answers as SARIF runs and JUnit cases, on real dumps (specs/examples and the
// semantics cases): a safe, an unsafe (a P1 mismatch between ops, a P1 mismatch between main
// threads, a P3 deadlock) and an unknown answer, and bad input. Field by field, and each region
// on the line of the op or main action the violation names.
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "checker/verify/job_places.hpp"
#include "checker/verify/verify_junit.hpp"
#include "checker/verify/verify_sarif.hpp"
#include "report/junit.hpp"
#include "runtime/dag/dump_reader.hpp"
#include "runtime/errors/input_error.hpp"
#include "runtime/json/file.hpp"

namespace ordo::checker {
namespace {

using nlohmann::json;

const std::string examples = ORDO_EXAMPLES_DIR;
const std::string cases = ORDO_SEMANTICS_CASES_DIR;

struct Answer {
  std::unique_ptr<System> model;
  Verification v;
  JobSource source;
  json run;  // the SARIF log's one run
};

// Verifies the dump at `dir`/`file`, naming it `shown` as a user on the command line would (a
// relative path), and writes the SARIF log.
Answer answer(const std::string& dir, const std::string& file, const std::string& shown,
              std::uint32_t ranks, std::optional<std::uint64_t> states_max = std::nullopt) {
  Answer a;
  a.model = std::make_unique<System>(dag::read_dump_file(dir + "/" + file), ranks);
  VerifyOptions options;
  if (states_max) {
    options.method = Method::explicit_search;
    options.limits.states_max = *states_max;
  }
  a.v = verify(*a.model, options);
  a.source = JobSource{shown, shown, ordo::json::read_json_file(dir + "/" + file, "dump")};
  a.run = json::parse(report::sarif_log(verify_sarif(*a.model, a.v, a.source)))["runs"][0];
  return a;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The line (from 1) and column of the first line at or after `from` holding `needle`.
std::pair<std::uint64_t, std::uint64_t> where(const std::string& text, const std::string& needle,
                                              std::size_t from = 1) {
  const std::vector<std::string> lines = lines_of(text);
  for (std::size_t i = from - 1; i < lines.size(); ++i) {
    const std::size_t at = lines[i].find(needle);
    if (at != std::string::npos) return {i + 1, at + 1};
  }
  ADD_FAILURE() << needle << " is not in the dump";
  return {0, 0};
}

const json& only_result(const json& run) {
  EXPECT_EQ(run.at("results").size(), 1u);
  return run["results"][0];
}

std::vector<report::JunitCase> cases_of(const Answer& a) {
  return verify_junit(*a.model, a.v, a.source);
}

TEST(VerifySarif, SafeHasNoResultAndSaysSo) {
  const Answer a = answer(examples, "funnel.json", "specs/examples/funnel.json", 4);
  ASSERT_EQ(a.v.result.verdict, Verdict::safe);
  EXPECT_EQ(a.run["invocations"][0].at("executionSuccessful"), true);
  EXPECT_FALSE(a.run["invocations"][0].contains("toolExecutionNotifications"));
  EXPECT_TRUE(a.run.at("results").empty());
  EXPECT_EQ(a.run.at("properties").at("verdict"), "safe");
  EXPECT_EQ(a.run["properties"].at("ranks"), 4);
  EXPECT_EQ(a.run["properties"].at("backend"), "mpi");
  const json& rules = a.run["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(rules[i].at("id"), "P" + std::to_string(i + 1));
    EXPECT_FALSE(rules[i].at("shortDescription").at("text").get<std::string>().empty());
    EXPECT_FALSE(rules[i].at("fullDescription").at("text").get<std::string>().empty());
  }
}

TEST(VerifySarif, MismatchBetweenOpsPointsAtTheCallThatDisagrees) {
  const std::string shown = "tests/checker/semantics_cases/c1_fifo2_async_same_comm.json";
  const Answer a = answer(cases, "c1_fifo2_async_same_comm.json", shown, 2);
  ASSERT_EQ(a.v.result.property, Property::p1_order);
  const auto& m = std::get<comm::Mismatch>(*a.v.result.violation);
  const json& result = only_result(a.run);
  EXPECT_EQ(result.at("ruleId"), "P1");
  EXPECT_EQ(result.at("ruleIndex"), 0);
  EXPECT_EQ(result.at("level"), "error");
  const std::string message = result.at("message").at("text");
  EXPECT_TRUE(message.starts_with("P1 order consistency fails at 2 rank(s)\n")) << message;
  EXPECT_NE(message.find(comm::describe(*a.v.result.violation)), std::string::npos);

  const json& l = result.at("locations").at(0);
  EXPECT_EQ(l["physicalLocation"]["artifactLocation"].at("uri"), shown);
  EXPECT_EQ(l["physicalLocation"]["artifactLocation"].at("uriBaseId"), "%SRCROOT%");
  const std::string offender = m.calls.back().issuer.name;
  const auto [line, column] = where(a.source.dump_text, "{\"name\": \"" + offender + "\"");
  EXPECT_EQ(l["physicalLocation"]["region"].at("startLine"), line);
  EXPECT_EQ(l["physicalLocation"]["region"].at("startColumn"), column);
  EXPECT_EQ(l["physicalLocation"]["region"].at("endLine"), line);  // the op is one line
  EXPECT_EQ(l.at("logicalLocations")[0].at("name"), offender);
  EXPECT_EQ(l["logicalLocations"][0].at("fullyQualifiedName"),
            shown + ": program 'step', op '" + offender + "'");

  // The other call at the same position is the related location.
  const std::string other = m.calls.front().issuer.name;
  ASSERT_EQ(result.at("relatedLocations").size(), 1u);
  const json& r = result["relatedLocations"][0];
  EXPECT_EQ(r["physicalLocation"]["region"].at("startLine"),
            where(a.source.dump_text, "{\"name\": \"" + other + "\"").first);
  EXPECT_NE(r.at("message").at("text").get<std::string>().find(other), std::string::npos);

  // One step per witness transition, in words as the trace's "what", each at its op or action.
  const json& steps = result.at("codeFlows")[0].at("threadFlows")[0].at("locations");
  ASSERT_EQ(steps.size(), a.v.result.witness.size());
  const std::vector<ProgramPart> parts = witness_parts(*a.model, a.v.result.witness);
  const std::vector<std::string> lines = lines_of(a.source.dump_text);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const dag::Transition& t = a.v.result.witness[i];
    EXPECT_EQ(steps[i].at("location").at("message").at("text"),
              describe(*a.model, t, parts[i].action));
    const std::uint64_t at = steps[i]["location"]["physicalLocation"]["region"].at("startLine");
    const std::string& text = lines.at(at - 1);
    if (t.kind == dag::Transition::Kind::main) {
      EXPECT_NE(text.find("\"action\""), std::string::npos) << text;
    } else {
      const std::string& op = a.model->program(t.rank).ops.at(t.op).name;
      EXPECT_NE(text.find("{\"name\": \"" + op + "\""), std::string::npos) << text;
    }
    const bool critical = a.v.critical_transition && *a.v.critical_transition == i + 1;
    EXPECT_EQ(steps[i].contains("importance"), critical);
  }
}

TEST(VerifySarif, MismatchBetweenMainThreadsPointsAtTheMainAction) {
  const Answer a = answer(cases, "c4_main_only_keys_reversed.json", "c4.json", 2);
  ASSERT_EQ(a.v.result.property, Property::p1_order);
  const auto& m = std::get<comm::Mismatch>(*a.v.result.violation);
  const comm::IssuedCall& offender = m.calls.back();
  ASSERT_EQ(offender.issuer.name, "main");
  const json& l = only_result(a.run).at("locations").at(0);
  const std::uint64_t line = l["physicalLocation"]["region"].at("startLine");
  // The offending rank's program, and in it the main action with the call's key.
  const std::uint64_t program =
      where(a.source.dump_text, "\"name\": \"rank" + std::to_string(offender.issuer.rank) + "\"")
          .first;
  const std::string key = "\"key\": " + std::to_string(offender.call.key) + ",";
  const auto [expected, column] = where(a.source.dump_text, "{\"action\": \"collective\"", program);
  const std::string first = lines_of(a.source.dump_text).at(expected - 1);
  const std::uint64_t action_line = first.find(key) != std::string::npos ? expected : expected + 1;
  EXPECT_EQ(line, action_line);
  EXPECT_EQ(l["physicalLocation"]["region"].at("startColumn"), column);
  EXPECT_NE(lines_of(a.source.dump_text).at(line - 1).find(key), std::string::npos);
  EXPECT_TRUE(
      l.at("logicalLocations")[0].at("name").get<std::string>().starts_with("main action "));
}

TEST(VerifySarif, DeadlockPointsAtTheWaitingOp) {
  const std::string shown = "specs/examples/extra_allreduce.json";
  const Answer a = answer(examples, "extra_allreduce.json", shown, 2);
  ASSERT_EQ(a.v.result.property, Property::p3_deadlock);
  const json& result = only_result(a.run);
  EXPECT_EQ(result.at("ruleId"), "P3");
  EXPECT_EQ(result.at("ruleIndex"), 2);
  EXPECT_NE(result.at("message").at("text").get<std::string>().find("deadlock: nothing can move"),
            std::string::npos);
  // Rank 0's allreduce1 waits for rank 1, which has no such call: two lines of the dump.
  const json& l = result.at("locations").at(0);
  const auto [line, column] = where(a.source.dump_text, "{\"name\": \"allreduce1\"");
  EXPECT_EQ(l["physicalLocation"]["region"].at("startLine"), line);
  EXPECT_EQ(l["physicalLocation"]["region"].at("startColumn"), column);
  EXPECT_EQ(l["physicalLocation"]["region"].at("endLine"), line + 1);
  EXPECT_EQ(l.at("message").at("text"),
            "rank 0 (allreduce1) waits in call 1 on 'world' for rank(s) 1");
  EXPECT_EQ(result.at("codeFlows")[0]["threadFlows"][0]["locations"].size(),
            a.v.result.witness.size());
}

TEST(VerifySarif, PlacesOfAJobWithoutAFileAreLogical) {
  const Answer a = answer(examples, "extra_allreduce.json", "x", 2);
  const JobSource design{"funnel on mlp", "", ""};
  const json run = json::parse(report::sarif_log(verify_sarif(*a.model, a.v, design)))["runs"][0];
  const json& result = only_result(run);
  const json& l = result.at("locations").at(0);
  EXPECT_FALSE(l.contains("physicalLocation"));
  EXPECT_EQ(l.at("logicalLocations")[0].at("fullyQualifiedName"),
            "funnel on mlp: program 'rank0', op 'allreduce1'");
  for (const json& step : result["codeFlows"][0]["threadFlows"][0]["locations"]) {
    EXPECT_FALSE(step.at("location").contains("physicalLocation"));
    EXPECT_TRUE(step["location"].contains("logicalLocations"));
  }
}

TEST(VerifySarif, PointersNameTheRanksProgram) {
  const Answer a = answer(examples, "extra_allreduce.json", "x", 2);
  const JobPlaces places(*a.model, a.source);
  EXPECT_EQ(places.pointer({0, 2, std::nullopt}), "/programs/0/ops/2");
  EXPECT_EQ(places.pointer({1, std::nullopt, 1}), "/programs/1/main/1");
}

TEST(VerifySarif, UnknownHasNoResultAndNamesTheBound) {
  const Answer a = answer(examples, "funnel.json", "funnel.json", 4, 3);
  ASSERT_EQ(a.v.result.verdict, Verdict::unknown);
  EXPECT_TRUE(a.run.at("results").empty());
  const json& invocation = a.run["invocations"][0];
  EXPECT_EQ(invocation.at("executionSuccessful"), true);
  const json& notes = invocation.at("toolExecutionNotifications");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].at("level"), "warning");
  EXPECT_NE(notes[0]["message"]["text"].get<std::string>().find(
                "bound states_max reached before the search ended; raise --states-max"),
            std::string::npos);
  EXPECT_EQ(a.run["properties"].at("verdict"), "unknown");
  EXPECT_EQ(a.run["properties"].at("bound"), "states_max");
}

TEST(VerifySarif, BadInputIsAFailedRunWithTheError) {
  std::string error;
  try {
    dag::read_dump(R"({"format": "ordo-dag", "version": 2, "comms": []})");
  } catch (const errors::InputError& e) {
    error = e.what();
  }
  ASSERT_FALSE(error.empty());
  const json run = json::parse(report::sarif_log(verify_sarif_failed(error)))["runs"][0];
  EXPECT_EQ(run["invocations"][0].at("executionSuccessful"), false);
  const json& notes = run["invocations"][0].at("toolExecutionNotifications");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].at("level"), "error");
  EXPECT_EQ(notes[0].at("message").at("text"), error);
  EXPECT_TRUE(run.at("results").empty());
  EXPECT_EQ(run["tool"]["driver"]["rules"].size(), 5u);
}

TEST(VerifyJunit, SafePassesEveryProperty) {
  const Answer a = answer(examples, "funnel.json", "specs/examples/funnel.json", 4);
  const std::vector<report::JunitCase> c = cases_of(a);
  ASSERT_EQ(c.size(), 5u);
  const char* names[] = {"P1 order consistency", "P2 thread rule", "P3 deadlock freedom",
                         "P4 termination", "P5 buffer safety"};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(c[i].name, names[i]);
    EXPECT_EQ(c[i].classname, "ordo.verify.funnel.ranks4.mpi");
    EXPECT_EQ(c[i].suite, "ordo verify specs/examples/funnel.json at 4 rank(s) (mpi)");
    EXPECT_FALSE(c[i].failure || c[i].error || c[i].skipped);
    EXPECT_DOUBLE_EQ(c[i].seconds, a.v.seconds / 5);
  }
}

TEST(VerifyJunit, UnsafeFailsItsPropertyAndLeavesTheOthersUndecided) {
  const Answer a =
      answer(examples, "extra_allreduce.json", "specs/examples/extra_allreduce.json", 2);
  const std::vector<report::JunitCase> c = cases_of(a);
  ASSERT_EQ(c.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    if (i == 2) {
      ASSERT_TRUE(c[i].failure);
      EXPECT_FALSE(c[i].skipped);
      EXPECT_EQ(c[i].failure->type, "P3");
      EXPECT_EQ(c[i].failure->message,
                "P3 deadlock freedom fails at 2 rank(s): deadlock: nothing can move and 1 "
                "rank(s) have not finished");
      EXPECT_NE(c[i].failure->text.find("witness: "), std::string::npos);
      EXPECT_NE(c[i].failure->text.find("rank 0 op 'allreduce1'"), std::string::npos);
    } else {
      EXPECT_FALSE(c[i].failure);
      ASSERT_TRUE(c[i].skipped) << c[i].name;
      EXPECT_TRUE(c[i].skipped->message.starts_with("not decided"));
    }
  }
}

TEST(VerifyJunit, UnknownSkipsEveryProperty) {
  const Answer a = answer(examples, "funnel.json", "funnel.json", 4, 3);
  for (const report::JunitCase& c : cases_of(a)) {
    ASSERT_TRUE(c.skipped);
    EXPECT_FALSE(c.failure);
    EXPECT_NE(c.skipped->message.find("raise --states-max"), std::string::npos);
  }
  const std::vector<report::JunitCase> guarded =
      verify_junit_unknown(a.source, 0, "mpi", "the time limit ran out while reading", 1.0);
  ASSERT_EQ(guarded.size(), 5u);
  EXPECT_EQ(guarded[0].classname, "ordo.verify.funnel.mpi");
  EXPECT_EQ(guarded[0].skipped->message, "not decided: the time limit ran out while reading");
}

TEST(VerifyJunit, BadInputIsOneCaseInError) {
  const std::vector<report::JunitCase> c =
      verify_junit_failed(JobSource{"jobs/a.json", "jobs/a.json", ""}, "a.json: /: bad", 0.5);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].name, "input");
  EXPECT_EQ(c[0].classname, "ordo.verify.a");
  ASSERT_TRUE(c[0].error);
  EXPECT_EQ(c[0].error->message, "a.json: /: bad");
}

TEST(VerifyJunit, ClassNamesHaveOnlyTheirOwnDots) {
  EXPECT_EQ(junit_classname({"dir/my.job.json", "dir/my.job.json", ""}, 8, "nccl"),
            "ordo.verify.my_job.ranks8.nccl");
  EXPECT_EQ(junit_classname({"fused(bucket_bytes=4096, order_guard=off) on mlp", "", ""}, 2, "mpi"),
            "ordo.verify.fused_bucket_bytes_4096_order_guard_off_on_mlp.ranks2.mpi");
  EXPECT_EQ(junit_classname({"...", "", ""}, 0, ""), "ordo.verify.job");
  EXPECT_EQ(junit_classname({"é ü", "", ""}, 1, "mpi"), "ordo.verify.é_ü.ranks1.mpi");
}

}  // namespace
}  // namespace ordo::checker
