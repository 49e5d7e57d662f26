// A campaign as a SARIF run, for code-scanning services: P1-P5 as the rules (the same as
// `ordo verify`'s) and one more for a disagreement between the checker and the runtime; one
// result per record, placed in the dump the campaign wrote (errors for findings and
// disagreements, notes for unsafe mutants), each with the commands that reproduce it. The run's
// properties say the job's verdict and the campaign's figures, since an empty result list means
// both a safe job and an undecided one.
#pragma once

#include <string_view>

#include "fuzz/lib/campaign.hpp"
#include "report/sarif.hpp"

namespace ordo::fuzz {

report::SarifRun campaign_sarif(const CampaignSummary& summary);

// The rule id of a disagreement, beside P1-P5.
inline constexpr std::string_view disagreement_rule = "ordo-fuzz-disagreement";

}  // namespace ordo::fuzz
