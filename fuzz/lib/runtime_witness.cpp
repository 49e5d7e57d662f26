#include "fuzz/lib/runtime_witness.hpp"

#include <stdexcept>

#include "checker/search/confirm_witness.hpp"
#include "checker/search/shorten.hpp"
#include "checker/system/deadlock.hpp"
#include "checker/system/state.hpp"
#include "checker/system/transitions.hpp"

namespace ordo::fuzz {

namespace {

checker::Result unsafe(const checker::System& model, const ScheduleRun& run,
                       comm::Violation violation) {
  checker::Result result;
  result.verdict = checker::Verdict::unsafe;
  result.ranks = model.ranks();
  result.property = checker::property_of(violation);
  result.violation = std::move(violation);
  result.witness = run.transitions;
  return result;
}

}  // namespace

std::variant<checker::Result, std::string> model_witness(const checker::System& model,
                                                         const ScheduleRun& run) {
  if (!run.violation) {
    return "the runtime's run ended in what no property names (" + run.outcome.report + ")";
  }
  checker::State state = checker::initial_state(model);
  const std::size_t n = run.transitions.size();
  for (std::size_t i = 0; i < n; ++i) {
    std::optional<comm::Violation> seen;
    try {
      seen = checker::apply(model, state, run.transitions[i]);
    } catch (const std::logic_error& e) {
      return "transition " + std::to_string(i + 1) + " of the runtime's run (" +
             checker::describe(model, run.transitions[i]) +
             ") is not enabled in the checker's model: " + e.what();
    }
    if (!seen) continue;
    if (i + 1 < n) {
      return "the checker's model meets a " + comm::kind_name(*seen) + " at transition " +
             std::to_string(i + 1) + " of the runtime's " + std::to_string(n) + ":\n" +
             comm::describe(*seen);
    }
    if (std::holds_alternative<comm::Deadlock>(*run.violation) ||
        !comm::same_violation(*seen, *run.violation)) {
      return "the checker's model meets a different violation at the runtime's last "
             "transition:\n" +
             comm::describe(*seen);
    }
    return unsafe(model, run, std::move(*seen));
  }
  if (!std::holds_alternative<comm::Deadlock>(*run.violation)) {
    return "the checker's model meets no violation along the runtime's run";
  }
  if (checker::finished(model, state)) {
    return "the checker's model finishes where the runtime deadlocked";
  }
  if (!checker::stuck(model, state)) {
    return "the checker's model can still move where the runtime deadlocked";
  }
  // P3 or P4 as the search says: by the description (checker::property_of), which must be the
  // runtime's own.
  comm::Violation stuck = checker::describe_deadlock(model, state);
  if (!comm::same_violation(stuck, *run.violation)) {
    return "the checker's model describes the deadlock otherwise than the runtime:\n" +
           comm::describe(stuck);
  }
  return unsafe(model, run, std::move(stuck));
}

std::optional<checker::Result> runtime_result(const checker::System& model,
                                              const ScheduleRun& run) {
  if (!run.violation) return std::nullopt;
  return unsafe(model, run, *run.violation);
}

checker::Result shrink(const checker::System& model, checker::Result result, double seconds) {
  checker::Result shorter = checker::shorten(model, result, seconds);
  // shorten keeps only candidates that reach the violation, and the witness is checked once more
  // on the way out: a trace the user is given must reproduce.
  try {
    checker::confirm_witness(model, shorter);
  } catch (const std::logic_error&) {
    return result;
  }
  return shorter;
}

}  // namespace ordo::fuzz
