#include "fuzz/lib/witness_replay.hpp"

#include <variant>

#include "fuzz/lib/schedule_mix.hpp"
#include "runtime/engine/errors.hpp"
#include "tools/replay/replay.hpp"

namespace ordo::fuzz {

namespace {

// Whether the runtime's end is the violation the checker reported: one violation type on both
// sides (runtime/comm/rules), compared field by field; when not, why not.
std::optional<std::string> compare(const comm::Violation& expected, const exec::RunOutcome& end,
                                   const std::optional<comm::Violation>& seen) {
  if (std::holds_alternative<comm::Deadlock>(expected)) {
    if (end.end != exec::RunEnd::deadlock) return std::string("the runtime is not deadlocked");
    return std::nullopt;
  }
  if (!seen) return "the runtime saw no violation, the checker a " + comm::kind_name(expected);
  if (!comm::same_violation(expected, *seen)) {
    return "the runtime saw a different violation:\n" + comm::describe(*seen);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> replay_problem(const Instance& instance, const checker::Model& model,
                                          const checker::Result& result) {
  const std::string checker_report = checker::report(model, result);
  if (!result.violation) return "an unsafe verdict without a violation:\n" + checker_report;
  exec::ControlledRun run(instance.job, instance.ranks, {}, instance.backend);
  for (std::size_t i = 0; i < result.witness.size(); ++i) {
    if (const auto end = run.outcome()) {
      return "the runtime's run ended after " + std::to_string(i) + " of the witness's " +
             std::to_string(result.witness.size()) + " transitions:\n" + end->report +
             "\nchecker:\n" + checker_report;
    }
    try {
      run.take(result.witness[i]);
    } catch (const engine::ScheduleError& e) {
      return "witness transition " + std::to_string(i + 1) +
             " is illegal on the runtime: " + e.what() + "\nruntime transitions so far:\n" +
             transitions_text(instance.job, instance.ranks, instance.backend, run.trace()) +
             "checker:\n" + checker_report;
    }
  }
  const std::optional<exec::RunOutcome> end = run.outcome();
  if (!end) return "the runtime's run has not ended after the witness\nchecker:\n" + checker_report;
  if (auto problem = compare(*result.violation, *end, run.violation())) {
    return *problem + "\nruntime (" + end->report + ")\nchecker:\n" + checker_report;
  }
  return std::nullopt;
}

}  // namespace ordo::fuzz
