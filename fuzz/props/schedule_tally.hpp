// How many schedules the properties ran on the controlled run, for the campaign figures in
// docs/testing.md: each program prints the totals once its tests are done.
#pragma once

#include "fuzz/sched/schedules.hpp"

namespace ordo::fuzz {

void tally(const ScheduleSummary& summary);

}  // namespace ordo::fuzz
