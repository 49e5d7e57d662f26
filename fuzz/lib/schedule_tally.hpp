// How many schedules the properties ran on the controlled run, for the campaign figures in
// docs/testing.md: a program that tallies prints the totals once, when it exits.
#pragma once

#include "fuzz/lib/schedule_mix.hpp"

namespace ordo::fuzz {

void tally(const ScheduleSummary& summary);

}  // namespace ordo::fuzz
