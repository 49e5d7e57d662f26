// A whole campaign in-process (fuzz/lib/campaign.hpp): the user's job decides the
// outcome, an unsafe mutant of a safe job is a note with its files, a disagreement anywhere is a
// failure, and the files written reproduce: the dump reads back as the job, the trace replays.
#include "fuzz/lib/campaign.hpp"

#include <gtest/gtest.h>

#include <map>

#include "checker/witness/trace_io.hpp"
#include "replay/replay.hpp"
#include "runtime/dag/dump_error.hpp"
#include "runtime/dag/dump_reader.hpp"
#include "runtime/designs/step_builder.hpp"
#include "tests/fuzz_cmd/fuzz_jobs.hpp"

namespace ordo::fuzz::testing {
namespace {

using designs::DesignKind;

// The files a campaign writes, by path.
struct Written {
  std::map<std::string, std::string> files;
  CampaignHooks hooks() {
    CampaignHooks h;
    h.write = [this](const std::string& path, const std::string& text) {
      files[path] = text;
      return true;
    };
    return h;
  }
};

CampaignOptions quick(std::uint32_t cases) {
  CampaignOptions o;
  o.cases = cases;
  o.schedules = 30;
  // The counts these tests assert come from the cases, schedules and states bounds alone: the
  // time bound, split into shares per case, is set where no share can run out (under ASan on a
  // loaded machine a 60 s one left a mutant 2 to 7 times its work).
  o.timeout = 3600.0;
  o.out_dir = "out";
  return o;
}

// The record's dump reads back, and its trace replays on the runtime into the property claimed.
// `ranks` 0: any rank count.
void expect_files_reproduce(const Record& r, const Written& w, std::uint32_t ranks = 0) {
  ASSERT_TRUE(w.files.count(r.dump_path)) << r.dump_path;
  ASSERT_TRUE(w.files.count(r.trace_path)) << r.trace_path;
  const dag::Job job = dag::read_dump(w.files.at(r.dump_path));
  const checker::Trace trace = checker::read_trace(w.files.at(r.trace_path));
  if (ranks != 0) {
    EXPECT_EQ(trace.ranks, ranks);
  }
  ASSERT_TRUE(trace.property.has_value());
  EXPECT_EQ(*trace.property, r.property);
  exec::ControlledRun run(job, trace.ranks, {}, trace.backend);
  const replay::Replay replayed = replay::replay(run, trace.transitions);
  ASSERT_TRUE(replayed.seen.has_value()) << r.case_name;
  EXPECT_EQ(replayed.transitions_taken, trace.transitions.size()) << r.case_name;
  EXPECT_EQ(*replayed.seen, *checker::parse_property(*trace.property)) << r.case_name;
}

TEST(FuzzCampaign, ASafeJobIsCleanAndWritesNothing) {
  Written w;
  const CampaignSummary s =
      run_campaign(mlp_step(DesignKind::depcha, 2), "depcha", quick(4), w.hooks());
  EXPECT_EQ(s.outcome, CampaignOutcome::clean);
  EXPECT_EQ(s.job.verdict, CaseVerdict::safe);
  EXPECT_TRUE(s.records.empty());
  EXPECT_TRUE(w.files.empty());
  EXPECT_EQ(s.mutants_checked, 4u);
  ASSERT_EQ(s.cases.size(), 5u);
  EXPECT_EQ(s.cases[0].name, "job");
  EXPECT_EQ(s.schedules, 5u * 30u);
}

TEST(FuzzCampaign, AnUnsafeJobIsAFindingWithFilesThatReproduce) {
  Written w;
  const CampaignSummary s =
      run_campaign(mlp_step(DesignKind::naive, 2), "naive", quick(3), w.hooks());
  EXPECT_EQ(s.outcome, CampaignOutcome::unsafe);
  // Mutants of a job that is unsafe already say nothing about a change: counted, not reported.
  ASSERT_EQ(s.records.size(), 1u);
  const Record& r = s.records[0];
  EXPECT_EQ(r.kind, RecordKind::finding);
  EXPECT_EQ(r.case_name, "job");
  EXPECT_EQ(r.dump_path, "out/job.dump.json");
  EXPECT_EQ(r.trace_path, "out/job.trace.json");
  ASSERT_EQ(r.reproduce.size(), 2u);
  EXPECT_EQ(r.reproduce[0], "ordo verify out/job.dump.json --ranks 2");
  EXPECT_EQ(r.reproduce[1], "ordo replay out/job.dump.json --trace out/job.trace.json");
  EXPECT_FALSE(r.witness.empty());
  ASSERT_TRUE(r.placed.has_value());
  EXPECT_EQ(dag::read_dump(w.files.at(r.dump_path)), mlp_step(DesignKind::naive, 2));
  expect_files_reproduce(r, w, 2);
}

TEST(FuzzCampaign, AnUnsafeMutantOfASafeJobIsANoteAndLeavesTheOutcome) {
  // naive on one comm thread is safe on a chain of layers; some changes break it (seed 1 makes
  // one that swaps an allreduce behind an update).
  Written w;
  const CampaignSummary s =
      run_campaign(mlp_step(DesignKind::naive, 1), "naive1", quick(8), w.hooks());
  EXPECT_EQ(s.outcome, CampaignOutcome::clean);
  EXPECT_EQ(s.job.verdict, CaseVerdict::safe);
  ASSERT_GT(s.mutants_unsafe, 0u);
  ASSERT_EQ(s.records.size(), s.mutants_unsafe);
  for (const Record& r : s.records) {
    EXPECT_EQ(r.kind, RecordKind::note);
    EXPECT_EQ(r.message.rfind("the job becomes unsafe when " + r.change, 0), 0u) << r.message;
    expect_files_reproduce(r, w);
  }
}

TEST(FuzzCampaign, ADisagreementOnTheJobFailsTheCampaign) {
  Written w;
  CampaignOptions o = quick(0);
  o.decide = forged(checker::Verdict::safe);
  const CampaignSummary s = run_campaign(mlp_step(DesignKind::naive, 2), "naive", o, w.hooks());
  EXPECT_EQ(s.outcome, CampaignOutcome::disagreement);
  ASSERT_EQ(s.records.size(), 1u);
  EXPECT_EQ(s.records[0].kind, RecordKind::disagreement);
  expect_files_reproduce(s.records[0], w, 2);
}

TEST(FuzzCampaign, ADisagreementOnAMutantFailsTheCampaign) {
  // The real checker on the job, a forged "safe" on every mutant: the mutants the runtime breaks
  // disagree.
  Written w;
  CampaignOptions o = quick(8);
  const dag::Job job = mlp_step(DesignKind::naive, 1);
  o.decide = [job](const checker::System& model, const checker::VerifyOptions& options) {
    if (model.job() == job && model.ranks() == 2) return checker::verify(model, options);
    return forged(checker::Verdict::safe)(model, options);
  };
  const CampaignSummary s = run_campaign(job, "naive1", o, w.hooks());
  EXPECT_EQ(s.job.verdict, CaseVerdict::safe);
  EXPECT_GT(s.mutants_disagree, 0u);
  EXPECT_EQ(s.outcome, CampaignOutcome::disagreement);
}

TEST(FuzzCampaign, MutantsLeftOutWhenTheTimeRunsOutAreCounted) {
  Written w;
  CampaignOptions o = quick(6);
  o.timeout = 1e-6;
  const CampaignSummary s = run_campaign(mlp_step(DesignKind::depcha, 2), "depcha", o, w.hooks());
  EXPECT_EQ(s.mutants_left_out, 6u);
  EXPECT_EQ(s.mutants_checked, 0u);
  // The job had its checker answer and one schedule at least.
  EXPECT_GE(s.job.schedules_run, 1u);
  ASSERT_EQ(s.cases.size(), 7u);
  EXPECT_FALSE(s.cases.back().checked);
}

TEST(FuzzCampaign, AJobInvalidAtTheRankCountIsRefusedBeforeAnyWork) {
  designs::DesignConfig c;
  c.kind = DesignKind::sharded;
  c.shards = 2;
  const dag::Job job = designs::build_step_job(networks::mlp(2, 8, 1.0), c, {});
  CampaignOptions o = quick(2);
  o.ranks = 3;
  Written w;
  EXPECT_ANY_THROW(run_campaign(job, "sharded", o, w.hooks()));
  EXPECT_TRUE(w.files.empty());
}

TEST(FuzzCampaign, NcclSemanticsFindConcomsDeadlock) {
  Written w;
  CampaignOptions o = quick(0);
  o.backend = comm::Backend::nccl;
  const CampaignSummary s = run_campaign(mlp_step(DesignKind::concom, 2), "concom", o, w.hooks());
  ASSERT_EQ(s.outcome, CampaignOutcome::unsafe) << s.job.message;
  ASSERT_EQ(s.records.size(), 1u);
  EXPECT_EQ(s.records[0].reproduce.at(0), "ordo verify out/job.dump.json --ranks 2 --backend nccl");
  expect_files_reproduce(s.records[0], w, 2);
}

}  // namespace
}  // namespace ordo::fuzz::testing
