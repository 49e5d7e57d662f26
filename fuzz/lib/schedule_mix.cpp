#include "fuzz/lib/schedule_mix.hpp"

#include "runtime/engine/errors.hpp"
#include "runtime/exec/pct_run.hpp"
#include "runtime/random/split_mix64.hpp"

namespace ordo::fuzz {

namespace {

constexpr std::uint32_t pct_depth_max = 3;
constexpr std::uint64_t golden = 0x9e3779b97f4a7c15ull;

// Room for any run of the job: a finished one takes exactly `run_transitions`; the slack lets a
// runtime that takes extra transitions end as transition_limit rather than as a cut-off run.
std::uint64_t transitions_max(std::uint64_t run_transitions) { return 2 * run_transitions + 64; }

}  // namespace

std::string ScheduleChoice::name() const {
  if (!pct) return "random seed " + std::to_string(seed);
  return "pct depth " + std::to_string(depth) + " seed " + std::to_string(seed);
}

ScheduleChoice schedule_choice(std::uint64_t base_seed, std::uint64_t index) {
  ScheduleChoice choice;
  choice.seed = random::SplitMix64(base_seed + index * golden).next();
  choice.pct = index % 2 == 1;
  if (choice.pct) choice.depth = 1 + static_cast<std::uint32_t>((index / 2) % pct_depth_max);
  return choice;
}

std::uint64_t case_seed(std::uint64_t campaign_seed, std::uint64_t case_index) {
  // A different stream from the schedules' own: case i's seed is not schedule i's.
  return random::SplitMix64(campaign_seed ^ (case_index * golden + 0x5bd1e995ull)).next();
}

ScheduleRun run_schedule(const dag::Job& job, std::uint32_t ranks, comm::Backend backend,
                         const ScheduleChoice& choice) {
  exec::ControlledRun run(job, ranks, {}, backend);
  const std::uint64_t k = exec::finished_run_transitions(job, ranks);
  ScheduleRun result;
  result.choice = choice;
  if (choice.pct) {
    result.outcome = exec::run_pct(run, {choice.depth, choice.seed, k, transitions_max(k)});
  } else {
    result.outcome = exec::run_random_schedule(run, choice.seed, transitions_max(k));
  }
  result.transitions = run.trace();
  if (result.outcome.end == exec::RunEnd::violation) result.violation = run.violation();
  if (result.outcome.end == exec::RunEnd::deadlock) {
    if (std::optional<comm::Deadlock> d = run.deadlock()) result.violation = std::move(*d);
  }
  return result;
}

ScheduleSummary run_schedules(const dag::Job& job, std::uint32_t ranks, comm::Backend backend,
                              std::uint64_t seed, std::uint64_t count,
                              std::chrono::steady_clock::time_point until,
                              const std::function<void()>& on_schedule) {
  ScheduleSummary summary;
  for (std::uint64_t i = 0; i < count; ++i) {
    if (i > 0 && std::chrono::steady_clock::now() >= until) break;
    ScheduleRun run = run_schedule(job, ranks, backend, schedule_choice(seed, i));
    ++summary.runs;
    summary.transitions += run.transitions.size();
    if (on_schedule) on_schedule();
    if (run.outcome.end != exec::RunEnd::finished) {
      summary.failing = std::move(run);
      summary.failing_index = i + 1;
      break;
    }
  }
  return summary;
}

std::string_view run_end_words(exec::RunEnd end) {
  switch (end) {
    case exec::RunEnd::finished:
      return "finished";
    case exec::RunEnd::violation:
      return "a violation";
    case exec::RunEnd::deadlock:
      return "a deadlock";
    case exec::RunEnd::rank_failed:
      return "a failed rank";
    case exec::RunEnd::transition_limit:
      return "a run that did not end";
  }
  return "?";
}

std::string transitions_text(const dag::Job& job, std::uint32_t ranks, comm::Backend backend,
                             const std::vector<dag::Transition>& transitions) {
  exec::ControlledRun run(job, ranks, {}, backend);
  std::string text;
  for (std::size_t i = 0; i < transitions.size(); ++i) {
    text += std::to_string(i + 1) + ". " + run.describe(transitions[i]) + "\n";
    try {
      run.take(transitions[i]);
    } catch (const engine::ScheduleError& e) {
      return text + "(refused: " + e.what() + ")\n";
    }
  }
  return text;
}

}  // namespace ordo::fuzz
