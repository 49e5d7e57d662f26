#include "fuzz/lib/schedules.hpp"

#include <algorithm>

#include "runtime/exec/pct_run.hpp"

namespace ordo::fuzz {

namespace {

// Enough for any run of the instance: a finished one takes exactly `run_transitions`; the slack
// lets a runtime that takes extra transitions show up as transition_limit rather than as a cut-off
// run.
std::uint64_t transitions_max(std::uint64_t run_transitions) { return 2 * run_transitions + 64; }

std::string trace_of(const exec::ControlledRun& run) {
  std::string text;
  for (std::size_t i = 0; i < run.trace().size(); ++i) {
    text += std::to_string(i + 1) + ". " + run.describe(run.trace()[i]) + "\n";
  }
  return text;
}

// splitmix64: independent-looking seeds for each schedule from one base seed.
std::uint64_t derive(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + (index + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

std::string_view to_string(exec::RunEnd end) {
  switch (end) {
    case exec::RunEnd::finished:
      return "finished";
    case exec::RunEnd::violation:
      return "violation";
    case exec::RunEnd::deadlock:
      return "deadlock";
    case exec::RunEnd::rank_failed:
      return "rank failed";
    case exec::RunEnd::transition_limit:
      return "transition limit";
  }
  return "?";
}

ScheduleSummary run_schedules(const Instance& instance, std::uint64_t seed,
                              const ScheduleBudget& budget) {
  ScheduleSummary summary;
  const std::uint64_t run_transitions =
      exec::finished_run_transitions(instance.job, instance.ranks);
  const std::uint32_t total = budget.random_runs + budget.pct_runs;
  for (std::uint32_t i = 0; i < total && !summary.first_bad; ++i) {
    const std::uint64_t s = derive(seed, i);
    exec::ControlledRun run(instance.job, instance.ranks, {}, instance.backend);
    exec::RunOutcome outcome;
    std::string scheduler;
    if (i < budget.random_runs) {
      outcome = exec::run_random_schedule(run, s, transitions_max(run_transitions));
      scheduler = "random seed " + std::to_string(s);
    } else {
      const std::uint32_t depth =
          1 + (i - budget.random_runs) % std::max<std::uint32_t>(budget.pct_depth_max, 1);
      outcome = exec::run_pct(run, {depth, s, run_transitions, transitions_max(run_transitions)});
      scheduler = "pct depth " + std::to_string(depth) + " seed " + std::to_string(s);
    }
    ++summary.runs;
    summary.transitions += run.trace().size();
    if (outcome.end != exec::RunEnd::finished) {
      summary.first_bad = ScheduleRun{scheduler, outcome, trace_of(run)};
    }
  }
  return summary;
}

}  // namespace ordo::fuzz
