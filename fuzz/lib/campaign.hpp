// `ordo fuzz` as a library: the agreement property (agreement.hpp) on the user's job, then on
// mutants of it (mutants.hpp), within one time budget. Every case with something to say becomes
// a record (record.hpp) with its job and witness written where the hooks write, so that
// `ordo verify` and `ordo replay` reproduce it. The user's job decides the outcome; a mutant
// that is merely unsafe is a note, a disagreement anywhere is a failure.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "fuzz/lib/agreement.hpp"
#include "fuzz/lib/generated_jobs.hpp"
#include "fuzz/lib/record.hpp"
#include "runtime/comm/rules/backend.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/errors/input_error.hpp"

namespace ordo::fuzz {

struct CampaignOptions {
  std::uint32_t ranks = 0;  // 0: the job's own, or 2 for a job valid at any rank count
  comm::Backend backend = comm::Backend::mpi;
  std::uint64_t seed = 1;
  std::uint32_t cases = 8;        // mutants, at most
  std::uint32_t schedules = 100;  // per case: half random walks, half PCT runs
  double timeout = 120.0;         // seconds for the whole campaign
  std::uint64_t states_max = 5'000'000;
  // Resident memory of the whole process the checker may bring it to, per case; 0: the search's
  // own default growth bound.
  std::uint64_t memory_max = 0;
  bool mutate = true;
  std::string out_dir = ".";  // where each record's files go
  Decider decide;             // empty: checker::verify
};

struct Progress {
  std::uint32_t cases_done = 0;
  std::uint32_t cases_total = 0;
  std::uint64_t schedules = 0;
  std::uint32_t findings = 0;  // records so far
  double seconds = 0.0;
};

struct CampaignSummary;

struct CampaignHooks {
  // Writes `text` to `path`; false when it could not (the hook says why). Empty: nothing written.
  std::function<bool(const std::string& path, const std::string& text)> write;
  std::function<void(const Progress&)> progress;  // after every schedule
  // After every record, with the summary as it stands (its records, cases and counts so far),
  // for a front end that must answer with what was found should a bound end the command.
  std::function<void(const CampaignSummary&)> recorded;
};

// How the campaign ends, in the order in which one outcome overrides another.
enum class CampaignOutcome : std::uint8_t {
  clean,         // the job is safe and no schedule failed
  unsafe,        // the job is unsafe
  unknown,       // the checker hit its bound on the job, and no schedule failed
  disagreement,  // the checker and the runtime contradict each other, on the job or a mutant
  not_written,   // a record's files could not be written
};

// One case as checked, for outputs that list every case (JUnit).
struct CaseLine {
  std::string name;    // "job", "mutant-03-drop-read"
  std::string change;  // a mutant's change in words
  CaseVerdict verdict = CaseVerdict::unknown;
  std::string property;  // "P1".."P4" when unsafe
  std::string message;
  std::uint64_t schedules = 0;
  double seconds = 0.0;
  bool checked = true;  // false: the time ran out before it was checked
};

// A campaign's figures: everything it says but the lists of records and cases, which only grow.
struct CampaignFigures {
  std::string job_name;
  // The JUnit class name's part for the job when not job_name: a dump's file name without its
  // extension, so that the name does not change with the directory a CI checks out into.
  std::string junit_job;
  std::uint32_t ranks = 0;
  comm::Backend backend = comm::Backend::mpi;
  CaseOutcome job;  // the user's job
  CampaignOutcome outcome = CampaignOutcome::clean;
  std::uint64_t schedules = 0;  // over every case
  std::uint32_t mutants_checked = 0;
  std::uint32_t mutants_unsafe = 0;
  std::uint32_t mutants_safe = 0;
  std::uint32_t mutants_unknown = 0;
  std::uint32_t mutants_disagree = 0;
  std::uint32_t mutants_invalid = 0;   // candidates skipped as invalid jobs
  std::uint32_t mutants_left_out = 0;  // made, but the time ran out before they were checked
  // --generate: random jobs, each checked as a user's job would be (no mutants); `job` and the
  // mutants' counts are then unused and `ranks` is 0 (each job has its own).
  bool generated = false;
  std::uint32_t generated_safe = 0;
  std::uint32_t generated_unsafe = 0;
  std::uint32_t generated_unknown = 0;
  std::uint32_t generated_disagree = 0;
  std::uint32_t generated_left_out = 0;
  double seconds = 0.0;
};

struct CampaignSummary : CampaignFigures {
  std::vector<Record> records;
  std::vector<CaseLine> cases;  // the job first, then every mutant made
};

// Runs the campaign on `job`, named `job_name` in the report. Throws errors::InputError or
// std::invalid_argument, before any work, when the job is not valid at the rank count.
CampaignSummary run_campaign(const dag::Job& job, const std::string& job_name,
                             const CampaignOptions& options, const CampaignHooks& hooks);

// Checks `count` jobs from `drawer` (generated_jobs.hpp) as a user's job, each drawn when its
// turn comes and given an equal share of what is left of the time: an unsafe one is a finding,
// and the outcome is the worst found (a disagreement, then unsafe, then unknown). Jobs the time
// leaves no room for are not drawn, and are counted. `name` names the set in the report.
CampaignSummary run_generated(JobDrawer& drawer, std::uint32_t count, const std::string& name,
                              const CampaignOptions& options, const CampaignHooks& hooks);

}  // namespace ordo::fuzz
