// The schedules the properties and `ordo fuzz` run on one job: uniformly random walks
// (exec::run_random_schedule) and PCT runs of depths 1 to 3 (runtime/exec/pct_run.hpp),
// alternating so that a run of them cut short (by a campaign's time limit, or at the first that
// fails) has run as many of one as of the other. Every schedule's seed is derived from a base
// seed (a case's, or a property instance's) and its index with random::SplitMix64, so a schedule
// is named by the two and reruns exactly.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/comm/rules/backend.hpp"
#include "runtime/comm/rules/violation.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/dag/transition.hpp"
#include "runtime/exec/controlled_run.hpp"

namespace ordo::fuzz {

struct ScheduleChoice {
  bool pct = false;
  std::uint32_t depth = 0;  // PCT's d; 0 for a random walk
  std::uint64_t seed = 0;
  std::string name() const;  // "random seed S", "pct depth D seed S"
};

// The index-th schedule of a job whose schedules derive from `base_seed`: even indices are
// random walks, odd ones PCT runs of depths 1, 2, 3, 1, ...
ScheduleChoice schedule_choice(std::uint64_t base_seed, std::uint64_t index);

// A seed for each case of a campaign from the campaign's --seed.
std::uint64_t case_seed(std::uint64_t campaign_seed, std::uint64_t case_index);

struct ScheduleRun {
  ScheduleChoice choice;
  exec::RunOutcome outcome;
  std::vector<dag::Transition> transitions;  // as the run took them
  // What the runtime saw: the violation, or the deadlock with what every party waits on.
  std::optional<comm::Violation> violation;
};

// Runs one schedule of `job` at `ranks` on exec::ControlledRun under `backend`.
ScheduleRun run_schedule(const dag::Job& job, std::uint32_t ranks, comm::Backend backend,
                         const ScheduleChoice& choice);

struct ScheduleSummary {
  std::uint64_t runs = 0;                      // schedules run
  std::uint64_t transitions = 0;               // transitions taken over all of them
  std::optional<ScheduleRun> failing;          // the first run that did not finish
  std::optional<std::uint64_t> failing_index;  // its 1-based index
};

// Runs schedules 0, 1, ... from `seed` until one ends in anything but RunEnd::finished, `count`
// have run, or `until` has passed (the first schedule always runs: a job with no run at all has
// not been held to anything). `on_schedule` is called after each.
ScheduleSummary run_schedules(
    const dag::Job& job, std::uint32_t ranks, comm::Backend backend, std::uint64_t seed,
    std::uint64_t count,
    std::chrono::steady_clock::time_point until = std::chrono::steady_clock::time_point::max(),
    const std::function<void()>& on_schedule = {});

// How a run ended, in words: "finished", "a violation", "a deadlock", "a failed rank", "a run
// that did not end".
std::string_view run_end_words(exec::RunEnd end);

// `transitions` taken on a fresh controlled run of the job, as it names each before taking it,
// one per line ("1. rank 0: main action 0: submit 'fwd.l0'"), up to the first it refuses.
std::string transitions_text(const dag::Job& job, std::uint32_t ranks, comm::Backend backend,
                             const std::vector<dag::Transition>& transitions);

}  // namespace ordo::fuzz
