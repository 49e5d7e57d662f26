// The schedules `ordo fuzz` runs on a case: uniformly random walks and PCT runs of depths 1 to 3
// (runtime/exec/pct_run.hpp), alternating so that a campaign cut short by its time limit has run
// as many of one as of the other. Every schedule's seed is derived from the case's seed and its
// index, so a schedule is named by the two and reruns exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/comm/rules/backend.hpp"
#include "runtime/comm/rules/violation.hpp"
#include "runtime/dag/transition.hpp"
#include "runtime/exec/controlled_run.hpp"
#include "fuzz/lib/fuzz_case.hpp"

namespace ordo::fuzz_campaign {

struct ScheduleChoice {
  bool pct = false;
  std::uint32_t depth = 0;  // PCT's d; 0 for a random walk
  std::uint64_t seed = 0;
  std::string name() const;  // "random seed S", "pct depth D seed S"
};

// The index-th schedule of a case whose schedules derive from `case_seed`: even indices are
// random walks, odd ones PCT runs of depths 1, 2, 3, 1, ...
ScheduleChoice schedule_choice(std::uint64_t case_seed, std::uint64_t index);

// A seed for each case of a campaign from the campaign's --seed.
std::uint64_t case_seed(std::uint64_t campaign_seed, std::uint64_t case_index);

struct ScheduleRun {
  ScheduleChoice choice;
  exec::RunOutcome outcome;
  std::vector<dag::Transition> transitions;  // as the run took them
  // What the runtime saw: the violation, or the deadlock with what every party waits on.
  std::optional<comm::Violation> violation;
};

// Runs one schedule of `fuzz_case` on exec::ControlledRun under `backend`.
ScheduleRun run_schedule(const FuzzCase& fuzz_case, comm::Backend backend,
                         const ScheduleChoice& choice);

}  // namespace ordo::fuzz_campaign
