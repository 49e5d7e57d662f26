// Many schedules of one instance on the runtime's controlled run: uniformly random walks
// (exec::run_random_schedule) and PCT runs of several depths, each from a seed derived from one
// base seed, so a failing schedule is named by that seed and its index and reruns exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "fuzz/lib/instance.hpp"
#include "runtime/exec/controlled_run.hpp"

namespace ordo::fuzz {

struct ScheduleBudget {
  std::uint32_t random_runs = 16;
  std::uint32_t pct_runs = 16;  // spread over depths 1 to pct_depth_max
  std::uint32_t pct_depth_max = 3;
};

struct ScheduleRun {
  std::string scheduler;  // "random seed S" or "pct depth D seed S"
  exec::RunOutcome outcome;
  std::string trace;  // the run's transitions, one per line
};

struct ScheduleSummary {
  std::uint64_t runs = 0;                // schedules run
  std::uint64_t transitions = 0;         // transitions taken over all of them
  std::optional<ScheduleRun> first_bad;  // the first run that did not finish cleanly
};

// Runs the budget's schedules until one ends in anything but RunEnd::finished.
ScheduleSummary run_schedules(const Instance& instance, std::uint64_t seed,
                              const ScheduleBudget& budget);

std::string_view to_string(exec::RunEnd end);

}  // namespace ordo::fuzz
