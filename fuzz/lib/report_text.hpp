// A campaign in plain words: each record with its files and the commands that reproduce it, then
// a summary of what was checked. Other formats (SARIF, JUnit) take the same records.
#pragma once

#include <string>

#include "fuzz/lib/campaign.hpp"

namespace ordo::fuzz {

std::string text_report(const CampaignSummary& summary);

}  // namespace ordo::fuzz
