// A campaign as JUnit test cases, one per case checked: the job's case fails when the job is
// unsafe and is skipped when the checker could not decide it; a mutant's case is the agreement
// property alone (an unsafe mutant is a note, not a failure), skipped when the time ran out
// before it; a disagreement fails its case, job or mutant, with type "disagreement".
#pragma once

#include <string>
#include <vector>

#include "fuzz/lib/campaign.hpp"
#include "report/junit.hpp"

namespace ordo::fuzz {

std::vector<report::JunitCase> campaign_junit(const CampaignSummary& summary);

// One skipped case for the job, written before the work: a campaign ended from outside (a CI
// system's own time limit) leaves "not finished" there, never an earlier run's answer.
std::vector<report::JunitCase> campaign_junit_unfinished(const std::string& job_name);

// One case "input" in error, for a campaign that could not start (bad input).
std::vector<report::JunitCase> campaign_junit_failed(const std::string& job_name,
                                                     const std::string& error);

}  // namespace ordo::fuzz
