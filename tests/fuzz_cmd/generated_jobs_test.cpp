// `ordo fuzz --generate` (fuzz/lib/generated_jobs.hpp): the jobs stay inside the
// user's settings, a seed names the same jobs every time, and bad settings are refused by name;
// a set with an unsafe job is a finding whose files reproduce, and a set of safe ones is clean.
#include "fuzz/lib/generated_jobs.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>

#include "fuzz/lib/campaign.hpp"
#include "runtime/dag/dump_writer.hpp"

namespace ordo::fuzz::testing {
namespace {

using designs::DesignKind;

// "... on 2 layer(s), 3 key(s), at 2 rank(s)": the count before `what`.
std::uint64_t count_in(const std::string& change, const std::string& what) {
  const std::size_t end = change.find(" " + what);
  std::size_t begin = change.rfind(' ', end - 1) + 1;
  return std::stoull(change.substr(begin, end - begin));
}

TEST(GeneratedJobs, StayInsideTheSettings) {
  GeneratorSettings s;
  s.designs = {DesignKind::concom, DesignKind::sharded};
  s.ranks = {2, 3};
  s.layers_max = 2;
  s.keys_max = 2;
  const std::vector<FuzzCase> jobs = generated_jobs(s, 7, 40);
  ASSERT_EQ(jobs.size(), 40u);
  std::set<std::uint32_t> ranks_seen;
  for (const FuzzCase& c : jobs) {
    ranks_seen.insert(c.ranks);
    EXPECT_TRUE(c.ranks == 2 || c.ranks == 3) << c.name;
    EXPECT_TRUE(c.change.rfind("concom(", 0) == 0 || c.change.rfind("sharded(", 0) == 0)
        << c.change;
    EXPECT_GE(count_in(c.change, "key(s)"), 1u) << c.change;
    EXPECT_LE(count_in(c.change, "key(s)"), 2u) << c.change;
    EXPECT_GE(count_in(c.change, "layer(s)"), 1u) << c.change;
    EXPECT_LE(count_in(c.change, "layer(s)"), 2u) << c.change;
    if (c.job.ranks) {
      EXPECT_EQ(*c.job.ranks, c.ranks) << c.change;
    }
  }
  EXPECT_EQ(ranks_seen.size(), 2u);
  EXPECT_EQ(jobs.front().name, "gen-001");
  EXPECT_EQ(jobs.back().name, "gen-040");
}

TEST(GeneratedJobs, ASeedNamesTheSameJobs) {
  const GeneratorSettings s;
  const std::vector<FuzzCase> a = generated_jobs(s, 42, 10);
  const std::vector<FuzzCase> b = generated_jobs(s, 42, 10);
  const std::vector<FuzzCase> c = generated_jobs(s, 43, 10);
  ASSERT_EQ(a.size(), b.size());
  bool differs = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].change, b[i].change);
    EXPECT_EQ(dag::write_dump(a[i].job), dag::write_dump(b[i].job));
    differs = differs || a[i].change != c[i].change;
  }
  EXPECT_TRUE(differs) << "another seed drew the same ten jobs";
}

TEST(GeneratedJobs, TheOrderGuardSettingIsKept) {
  GeneratorSettings s;
  s.designs = {DesignKind::fused, DesignKind::priority, DesignKind::depcha};
  s.order_guard = GuardChoice::off;
  for (const FuzzCase& c : generated_jobs(s, 3, 30)) {
    // depcha has no guard to leave out, so it never says so.
    const bool off = c.change.find("order_guard=off") != std::string::npos;
    EXPECT_EQ(off, c.change.rfind("depcha(", 0) != 0) << c.change;
  }
}

TEST(GeneratedJobs, BadSettingsAreRefusedByName) {
  GeneratorSettings s;
  s.ranks = {};
  EXPECT_THROW(check_settings(s), std::invalid_argument);
  s.ranks = {2, 0};
  EXPECT_THROW(check_settings(s), std::invalid_argument);
  s = GeneratorSettings{};
  s.count_max = count_max_limit + 1;
  EXPECT_THROW(check_settings(s), std::invalid_argument);
  s = GeneratorSettings{};
  s.keys_max = 0;
  try {
    check_settings(s);
    FAIL() << "a bound of 0 passed";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--gen-keys"), std::string::npos) << e.what();
  }
}

CampaignOptions quick() {
  CampaignOptions o;
  o.schedules = 20;
  // The counts these tests assert come from the cases, schedules and states bounds alone: the
  // time bound, split into shares per case, is set where no share can run out (under ASan on a
  // loaded machine a 60 s one left a mutant 2 to 7 times its work).
  o.timeout = 3600.0;
  o.out_dir = "gen";
  return o;
}

TEST(GeneratedCampaign, AnUnsafeJobIsAFindingWithItsFiles) {
  GeneratorSettings s;
  s.designs = {DesignKind::naive};
  s.keys_max = 2;
  std::map<std::string, std::string> files;
  CampaignHooks hooks;
  hooks.write = [&files](const std::string& path, const std::string& text) {
    files[path] = text;
    return true;
  };
  JobDrawer drawer(s, 1);
  const CampaignSummary summary = run_generated(drawer, 3, describe(s), quick(), hooks);
  EXPECT_TRUE(summary.generated);
  EXPECT_EQ(summary.outcome, CampaignOutcome::unsafe);
  EXPECT_GE(summary.generated_unsafe, 1u);
  EXPECT_EQ(summary.generated_disagree, 0u);
  ASSERT_FALSE(summary.records.empty());
  const Record& r = summary.records.front();
  EXPECT_EQ(r.kind, RecordKind::finding);
  EXPECT_EQ(r.message.rfind("naive(", 0), 0u) << r.message;
  EXPECT_TRUE(files.count(r.dump_path)) << r.dump_path;
  EXPECT_TRUE(files.count(r.trace_path)) << r.trace_path;
  EXPECT_EQ(summary.cases.size(), 3u);
}

TEST(GeneratedCampaign, SafeJobsAreClean) {
  GeneratorSettings s;
  s.designs = {DesignKind::funnel, DesignKind::depcha};
  JobDrawer drawer(s, 5);
  const CampaignSummary summary = run_generated(drawer, 5, describe(s), quick(), CampaignHooks{});
  EXPECT_EQ(summary.outcome, CampaignOutcome::clean);
  EXPECT_EQ(summary.generated_safe, 5u);
  EXPECT_TRUE(summary.records.empty());
}

TEST(GeneratedCampaign, JobsTheTimeLeavesNoRoomForAreNotDrawn) {
  GeneratorSettings s;
  s.designs = {DesignKind::funnel};
  JobDrawer drawer(s, 9);
  CampaignOptions o = quick();
  o.timeout = 1e-9;
  const CampaignSummary summary = run_generated(drawer, 100000, describe(s), o, CampaignHooks{});
  EXPECT_EQ(summary.generated_left_out, 100000u);
  ASSERT_EQ(summary.cases.size(), 1u);  // one line for them all, none drawn
  EXPECT_FALSE(summary.cases.front().checked);
  EXPECT_EQ(summary.outcome, CampaignOutcome::unknown);
  EXPECT_EQ(drawer.next().name, "gen-001");  // the drawer was never asked
}

}  // namespace
}  // namespace ordo::fuzz::testing
