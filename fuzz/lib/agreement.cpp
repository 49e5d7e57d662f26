#include "fuzz/lib/agreement.hpp"

#include <algorithm>
#include <new>
#include <stdexcept>
#include <variant>

#include "fuzz/lib/record.hpp"
#include "fuzz/lib/runtime_witness.hpp"
#include "replay/replay.hpp"

namespace ordo::fuzz {

namespace {

using Clock = std::chrono::steady_clock;

// A witness found by the runtime is shortened for this long at most: enough for the steps of a
// small job, and short of a noticeable share of a campaign.
constexpr double shrink_seconds = 2.0;

std::string property_words(const checker::Result& result) {
  return result.property ? std::string(checker::to_string(*result.property)) : "no property";
}

// "schedule 7 (pct depth 2 seed S) ended in a deadlock: ..."
std::string schedule_words(const CaseOutcome& o) {
  return "schedule " + std::to_string(*o.failing_index) + " (" + o.failing->choice.name() +
         ") ended in " + std::string(run_end_words(o.failing->outcome.end)) + ":\n" +
         o.failing->outcome.report;
}

checker::VerifyOptions verify_options(const CaseBudget& budget) {
  checker::VerifyOptions options;
  options.limits.seconds_max = std::max(budget.checker_seconds, 0.001);
  options.limits.states_max = budget.states_max;
  options.limits.bytes_max = budget.bytes_max;
  // The critical transition helps a person read one witness; a campaign reports the witness and
  // leaves that to `ordo verify`.
  options.critical_transition = false;
  options.witness_seconds = std::min(1.0, budget.checker_seconds / 4.0);
  return options;
}

// The checker says unsafe: its witness must end on the runtime in the violation it names, and a
// schedule that failed must fail on the model too.
void judge_unsafe(const FuzzCase& fuzz_case, const checker::System& model, CaseOutcome& o) {
  const checker::Result& result = o.checked.result;
  o.witness = result;
  exec::ControlledRun run(fuzz_case.job, fuzz_case.ranks, {}, model.backend());
  const replay::Replay replayed = replay::replay(run, result.witness);
  if (const std::optional<std::string> why = replay::problem(replayed, result)) {
    o.verdict = CaseVerdict::disagreement;
    o.message = "the checker says UNSAFE (" + property_words(result) +
                "), but its witness does not reproduce on the runtime: " + *why;
    return;
  }
  if (o.failing) {
    const auto seen = model_witness(model, *o.failing);
    if (const auto* why = std::get_if<std::string>(&seen)) {
      o.verdict = CaseVerdict::disagreement;
      o.witness = runtime_result(model, *o.failing);
      o.message = "the checker says UNSAFE (" + property_words(result) + "), and " +
                  schedule_words(o) + "\nbut the checker's model does not end there: " + *why;
      return;
    }
  }
  o.verdict = CaseVerdict::unsafe;
  o.message = comm::describe(*result.violation) + "\n";
  o.message += o.failing ? "the runtime failed too, in schedule " +
                               std::to_string(*o.failing_index) + " (" + o.failing->choice.name() +
                               "): " + first_line(o.failing->outcome.report)
                         : "none of " + std::to_string(o.schedules_run) +
                               " schedule(s) met it on the runtime; the checker's witness "
                               "reproduces there";
}

// The checker says safe or could not decide, and a schedule failed.
void judge_failing(const checker::System& model, CaseOutcome& o) {
  const bool safe = o.checked.result.verdict == checker::Verdict::safe;
  const auto seen = model_witness(model, *o.failing);
  if (const auto* confirmed = std::get_if<checker::Result>(&seen)) {
    o.witness = shrink(model, *confirmed, shrink_seconds);
    if (safe) {
      o.verdict = CaseVerdict::disagreement;
      o.message = "the checker says SAFE, but " + schedule_words(o) +
                  "\nand the checker's own model reaches the same violation along that schedule: "
                  "its search missed it";
    } else {
      o.verdict = CaseVerdict::unsafe;
      o.message = comm::describe(*o.witness->violation) + "\nfound by the runtime in schedule " +
                  std::to_string(*o.failing_index) + " (" + o.failing->choice.name() +
                  "), the checker having hit its bound first; the checker's model reaches the "
                  "same violation along that schedule (the witness is the schedule, shortened)";
    }
    return;
  }
  o.verdict = CaseVerdict::disagreement;
  o.witness = runtime_result(model, *o.failing);
  o.message = std::string("the checker says ") + (safe ? "SAFE" : "UNKNOWN") + ", but " +
              schedule_words(o) +
              "\nand the checker's model does not end there: " + std::get<std::string>(seen);
}

}  // namespace

CaseOutcome check_case(const FuzzCase& fuzz_case, const checker::System& model,
                       const Decider& decide, const CaseBudget& budget, std::uint64_t seed,
                       const std::function<void()>& on_schedule) {
  const Clock::time_point begin = Clock::now();
  CaseOutcome o;
  try {
    o.checked = decide(model, verify_options(budget));
  } catch (const std::logic_error& e) {
    // The checker refuses to give an answer it cannot stand by (a witness that does not confirm).
    o.verdict = CaseVerdict::disagreement;
    o.message = std::string("the checker failed: ") + e.what();
    o.seconds = std::chrono::duration<double>(Clock::now() - begin).count();
    return o;
  } catch (const std::bad_alloc&) {
    o.checked.result.verdict = checker::Verdict::unknown;
    o.checked.result.bound = checker::Bound::bytes_max;
  }
  ScheduleSummary runs = run_schedules(fuzz_case.job, fuzz_case.ranks, model.backend(), seed,
                                       budget.schedules, budget.schedules_until, on_schedule);
  o.schedules_run = runs.runs;
  if (runs.failing) {
    o.failing = std::move(runs.failing);
    o.failing_index = runs.failing_index;
    o.failing_seconds = std::chrono::duration<double>(Clock::now() - begin).count();
  }
  switch (o.checked.result.verdict) {
    case checker::Verdict::unsafe:
      judge_unsafe(fuzz_case, model, o);
      break;
    case checker::Verdict::safe:
    case checker::Verdict::unknown:
      if (o.failing) {
        judge_failing(model, o);
      } else if (o.checked.result.verdict == checker::Verdict::safe) {
        o.verdict = CaseVerdict::safe;
        o.message = "safe: the checker proved it and " + std::to_string(o.schedules_run) +
                    " schedule(s) finished";
      } else {
        o.verdict = CaseVerdict::unknown;
        const checker::Result& r = o.checked.result;
        o.message = "unknown: the checker hit its bound (" +
                    std::string(r.bound ? checker::to_string(*r.bound) : "none") + ") and " +
                    std::to_string(o.schedules_run) + " schedule(s) finished";
      }
      break;
  }
  o.seconds = std::chrono::duration<double>(Clock::now() - begin).count();
  return o;
}

}  // namespace ordo::fuzz
