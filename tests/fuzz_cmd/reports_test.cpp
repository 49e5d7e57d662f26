// A campaign's reports (fuzz/lib/report_*.hpp): in words, with the commands that
// reproduce each record; as SARIF, placed in the dump written; as JUnit, one case per case checked.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fuzz/lib/campaign.hpp"
#include "fuzz/lib/report_junit.hpp"
#include "fuzz/lib/report_sarif.hpp"
#include "fuzz/lib/report_text.hpp"
#include "report/junit.hpp"
#include "report/sarif.hpp"
#include "tests/fuzz_cmd/fuzz_jobs.hpp"

namespace ordo::fuzz::testing {
namespace {

using designs::DesignKind;

CampaignSummary campaign_of(DesignKind kind, std::uint32_t comm_threads, std::uint32_t cases,
                            const Decider& decide = {}) {
  CampaignOptions o;
  o.cases = cases;
  o.schedules = 20;
  o.out_dir = "findings";
  o.decide = decide;
  CampaignHooks hooks;
  hooks.write = [](const std::string&, const std::string&) { return true; };
  return run_campaign(mlp_step(kind, comm_threads), "the job", o, hooks);
}

TEST(FuzzReports, TheTextSaysEachFindingWithItsFilesAndCommands) {
  const std::string text = text_report(campaign_of(DesignKind::naive, 2, 0));
  EXPECT_NE(text.find("FINDING in job (P"), std::string::npos) << text;
  EXPECT_NE(text.find("written: findings/job.dump.json, findings/job.trace.json"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    ordo verify findings/job.dump.json --ranks 2\n"), std::string::npos);
  EXPECT_NE(text.find("    ordo replay findings/job.dump.json --trace findings/job.trace.json\n"),
            std::string::npos);
  EXPECT_NE(text.find("the job at 2 rank(s) under mpi: the job is UNSAFE"), std::string::npos)
      << text;
}

TEST(FuzzReports, ADisagreementIsSaidLoudly) {
  const std::string text =
      text_report(campaign_of(DesignKind::naive, 2, 0, forged(checker::Verdict::safe)));
  EXPECT_NE(text.find("DISAGREEMENT between the checker and the runtime on job"), std::string::npos)
      << text;
  EXPECT_NE(text.find("the checker and the runtime DISAGREE on the job"), std::string::npos);
}

TEST(FuzzReports, SarifPlacesTheFindingInTheDumpWritten) {
  const CampaignSummary s = campaign_of(DesignKind::naive, 2, 0);
  const nlohmann::json log = nlohmann::json::parse(report::sarif_log(campaign_sarif(s)));
  const nlohmann::json& run = log.at("runs").at(0);
  ASSERT_EQ(run.at("tool").at("driver").at("rules").size(), 6u);
  EXPECT_EQ(run.at("tool").at("driver").at("rules").at(5).at("id"), disagreement_rule);
  ASSERT_EQ(run.at("results").size(), 1u);
  const nlohmann::json& result = run.at("results").at(0);
  EXPECT_EQ(result.at("ruleId"), s.records.at(0).property);
  EXPECT_EQ(result.at("level"), "error");
  const nlohmann::json& place = result.at("locations").at(0).at("physicalLocation");
  EXPECT_EQ(place.at("artifactLocation").at("uri"), "findings/job.dump.json");
  EXPECT_GE(place.at("region").at("startLine").get<int>(), 1);
  EXPECT_FALSE(result.at("codeFlows").empty());
  EXPECT_NE(result.at("message").at("text").get<std::string>().find("ordo replay"),
            std::string::npos);
  EXPECT_EQ(run.at("properties").at("verdict"), "unsafe");
}

TEST(FuzzReports, SarifOfADisagreementUsesItsOwnRule) {
  const CampaignSummary s = campaign_of(DesignKind::naive, 2, 0, forged(checker::Verdict::safe));
  const nlohmann::json log = nlohmann::json::parse(report::sarif_log(campaign_sarif(s)));
  const nlohmann::json& result = log.at("runs").at(0).at("results").at(0);
  EXPECT_EQ(result.at("ruleId"), disagreement_rule);
  EXPECT_EQ(result.at("level"), "error");
}

TEST(FuzzReports, JunitHasACaseForTheJobAndEachMutant) {
  const CampaignSummary unsafe = campaign_of(DesignKind::naive, 2, 2);
  const std::vector<report::JunitCase> cases = campaign_junit(unsafe);
  ASSERT_EQ(cases.size(), 3u);
  ASSERT_TRUE(cases[0].failure.has_value());
  EXPECT_EQ(cases[0].failure->type, unsafe.records.at(0).property);
  EXPECT_NE(cases[0].failure->text.find("reproduce with: ordo replay"), std::string::npos);
  // A mutant is held to the agreement property alone: unsafe is not a failure there.
  EXPECT_FALSE(cases[1].failure.has_value());
  EXPECT_EQ(cases[0].classname, "ordo.fuzz.the_job.ranks2.mpi");

  const std::vector<report::JunitCase> safe = campaign_junit(campaign_of(DesignKind::depcha, 2, 1));
  for (const report::JunitCase& c : safe) {
    EXPECT_FALSE(c.failure || c.error || c.skipped) << c.name;
  }
  const std::vector<report::JunitCase> unknown =
      campaign_junit(campaign_of(DesignKind::depcha, 2, 0, forged(checker::Verdict::unknown)));
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_TRUE(unknown[0].skipped.has_value());
  EXPECT_NE(report::junit_xml(unknown).find("<skipped"), std::string::npos);
}

}  // namespace
}  // namespace ordo::fuzz::testing
