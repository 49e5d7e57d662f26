// The SARIF writer, field by field against SARIF 2.1.0's required properties and types: the log's
// version and $schema, one run with its tool's driver (name, version, rules), an invocation that
// says whether the tool ran, results with ruleId, ruleIndex, level, message.text and locations,
// code flows of thread flows of locations. The published schema is not checked against (it is
// not in the tree); docs/checker.md says so.
#include "report/sarif.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "report/tool_version.hpp"

namespace ordo::report {
namespace {

using nlohmann::json;

SarifRule rule(const std::string& id) { return {id, id + "Name", "short " + id, "full " + id}; }

TEST(Sarif, EmptyRunHasTheRequiredSkeleton) {
  const json log = json::parse(sarif_log({}, true));
  EXPECT_EQ(log.at("version"), "2.1.0");
  EXPECT_TRUE(log.at("$schema").get<std::string>().starts_with("https://"));
  ASSERT_EQ(log.at("runs").size(), 1u);
  const json& run = log["runs"][0];
  EXPECT_EQ(run.at("tool").at("driver").at("name"), "ordo");
  EXPECT_EQ(run["tool"]["driver"].at("version"), std::string(tool_version()));
  EXPECT_TRUE(run["tool"]["driver"].at("rules").is_array());
  ASSERT_EQ(run.at("invocations").size(), 1u);
  EXPECT_EQ(run["invocations"][0].at("executionSuccessful"), true);
  EXPECT_FALSE(run["invocations"][0].contains("toolExecutionNotifications"));
  EXPECT_EQ(run.at("columnKind"), "utf16CodeUnits");
  ASSERT_TRUE(run.at("results").is_array());  // present when empty: nothing was found
  EXPECT_TRUE(run["results"].empty());
}

TEST(Sarif, TheProjectVersionIsAVersion) {
  const std::string version(tool_version());
  EXPECT_FALSE(version.empty());
  EXPECT_EQ(std::count(version.begin(), version.end(), '.'), 2) << version;
}

TEST(Sarif, ResultsPointAtRulesAndPlaces) {
  SarifResult r;
  r.rule_id = "P3";
  r.message = "P3 deadlock freedom fails at 2 rank(s)";
  r.location = SarifLocation{"specs/examples/a b.json",
                             SarifRegion{26, 9, 27, 123},
                             "op",
                             "job: program 'p', op 'op'",
                             "function",
                             "waits here"};
  r.related.push_back(SarifLocation{"", std::nullopt, "other", "", "", "and here"});
  r.steps.push_back(SarifStep{SarifLocation{"/abs/x.json", SarifRegion{3, 0, 0, 0}, "", "", "",
                                            "rank 0: claim 'op' thread 0"},
                              ""});
  r.steps.push_back(
      SarifStep{SarifLocation{"", std::nullopt, "", "", "", "rank 1: issue"}, "essential"});
  const json run = json::parse(sarif_log({r}, true, {rule("P1"), rule("P3")}))["runs"][0];
  const json& rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[1].at("id"), "P3");
  EXPECT_EQ(rules[1].at("name"), "P3Name");
  EXPECT_EQ(rules[1].at("shortDescription").at("text"), "short P3");
  EXPECT_EQ(rules[1].at("fullDescription").at("text"), "full P3");
  EXPECT_EQ(rules[1].at("defaultConfiguration").at("level"), "error");

  ASSERT_EQ(run["results"].size(), 1u);
  const json& result = run["results"][0];
  EXPECT_EQ(result.at("ruleId"), "P3");
  EXPECT_EQ(result.at("ruleIndex"), 1);
  EXPECT_EQ(result.at("level"), "error");
  EXPECT_EQ(result.at("message").at("text"), r.message);
  ASSERT_EQ(result.at("locations").size(), 1u);
  const json& where = result["locations"][0];
  const json& artifact = where.at("physicalLocation").at("artifactLocation");
  EXPECT_EQ(artifact.at("uri"), "specs/examples/a%20b.json");
  EXPECT_EQ(artifact.at("uriBaseId"), "%SRCROOT%");
  const json& region = where["physicalLocation"].at("region");
  EXPECT_EQ(region.at("startLine"), 26);
  EXPECT_EQ(region.at("startColumn"), 9);
  EXPECT_EQ(region.at("endLine"), 27);
  EXPECT_EQ(region.at("endColumn"), 123);
  EXPECT_EQ(where.at("logicalLocations")[0].at("name"), "op");
  EXPECT_EQ(where["logicalLocations"][0].at("fullyQualifiedName"), "job: program 'p', op 'op'");
  EXPECT_EQ(where["logicalLocations"][0].at("kind"), "function");
  EXPECT_EQ(where.at("message").at("text"), "waits here");

  const json& related = result.at("relatedLocations");
  ASSERT_EQ(related.size(), 1u);
  EXPECT_FALSE(related[0].contains("physicalLocation"));  // a place with no file
  EXPECT_EQ(related[0].at("logicalLocations")[0].at("name"), "other");
  EXPECT_EQ(related[0].at("id"), 0);

  ASSERT_EQ(result.at("codeFlows").size(), 1u);
  const json& steps = result["codeFlows"][0].at("threadFlows")[0].at("locations");
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].at("location").at("message").at("text"), "rank 0: claim 'op' thread 0");
  const json& absolute = steps[0]["location"].at("physicalLocation");
  EXPECT_EQ(absolute.at("artifactLocation").at("uri"), "file:///abs/x.json");
  EXPECT_FALSE(absolute["artifactLocation"].contains("uriBaseId"));
  EXPECT_EQ(absolute.at("region"), json({{"startLine", 3}}));  // columns unknown: left out
  EXPECT_EQ(steps[0].at("executionOrder"), 1);
  EXPECT_FALSE(steps[0].contains("importance"));
  EXPECT_EQ(steps[1].at("importance"), "essential");
  EXPECT_FALSE(steps[1]["location"].contains("physicalLocation"));
}

TEST(Sarif, AResultWithoutStepsHasNoCodeFlowAndAnUnknownRuleNoIndex) {
  SarifResult r;
  r.rule_id = "X9";
  r.message = "m";
  const json result = json::parse(sarif_log({r}, true, {rule("P1")}))["runs"][0]["results"][0];
  EXPECT_FALSE(result.contains("codeFlows"));
  EXPECT_FALSE(result.contains("ruleIndex"));
  EXPECT_TRUE(result.at("locations").empty());
}

TEST(Sarif, AFailedRunSaysSoWithNotificationsAndExitCode) {
  SarifRun run;
  run.execution_successful = false;
  run.exit_code = 2;
  run.notifications.push_back({"error", "job.json: /programs/0: missing field \"ops\""});
  run.properties = {{"verdict", std::string("none")},
                    {"ranks", std::int64_t{4}},
                    {"seconds", 0.5},
                    {"every", true}};
  const json j = json::parse(sarif_log(run))["runs"][0];
  const json& invocation = j["invocations"][0];
  EXPECT_EQ(invocation.at("executionSuccessful"), false);
  EXPECT_EQ(invocation.at("exitCode"), 2);
  const json& notes = invocation.at("toolExecutionNotifications");
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].at("level"), "error");
  EXPECT_EQ(notes[0].at("message").at("text"), "job.json: /programs/0: missing field \"ops\"");
  EXPECT_TRUE(j.at("results").empty());
  EXPECT_EQ(j.at("properties"),
            json({{"verdict", "none"}, {"ranks", 4}, {"seconds", 0.5}, {"every", true}}));
}

TEST(Sarif, SourceRootIsADirectoryUri) {
  SarifRun run;
  run.source_root = "/work/my jobs";
  const json j = json::parse(sarif_log(run))["runs"][0];
  EXPECT_EQ(j.at("originalUriBaseIds").at("%SRCROOT%").at("uri"), "file:///work/my%20jobs/");
}

TEST(Sarif, InvalidUtf8IsReplacedNotFatal) {
  SarifResult r;
  r.rule_id = "P1";
  r.message = "bad \xff byte";
  r.location = SarifLocation{"dump\xfe.json", std::nullopt, "", "", "", ""};
  const json result = json::parse(sarif_log({r}, true))["runs"][0]["results"][0];
  EXPECT_EQ(result["message"]["text"], "bad \xef\xbf\xbd byte");
  EXPECT_EQ(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "dump%FE.json");
}

TEST(Sarif, PathsBecomeUriReferences) {
  EXPECT_EQ(path_uri("specs/examples/funnel.json"), "specs/examples/funnel.json");
  EXPECT_EQ(path_uri("../x.json"), "../x.json");
  EXPECT_EQ(path_uri("a b%#?.json"), "a%20b%25%23%3F.json");
  EXPECT_EQ(path_uri("c:job.json"), "c%3Ajob.json");  // not a scheme
  EXPECT_EQ(path_uri("/tmp/é.json"), "file:///tmp/%C3%A9.json");
}

}  // namespace
}  // namespace ordo::report
