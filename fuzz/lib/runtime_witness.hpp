// A schedule that failed on the runtime, as the checker's model sees it. The controlled run and
// the checker name transitions alike (dag::Transition), so the run's trace is a candidate witness
// on the model: when the model takes it transition by transition into the same violation, it
// becomes a checker::Result that checker::shorten can shrink and checker::write_trace can save;
// when it does not, the runtime did something the model says cannot happen.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "checker/search/verdict.hpp"
#include "checker/system/system.hpp"
#include "fuzz/lib/schedule_mix.hpp"

namespace ordo::fuzz {

// The model's unsafe answer along `run`'s transitions, or why the model does not end where the
// runtime did (an illegal transition, a violation elsewhere or of another kind, no stuck state).
std::variant<checker::Result, std::string> model_witness(const checker::System& model,
                                                         const ScheduleRun& run);

// The runtime's own account of `run` as an unsafe result, for a trace written when the model
// cannot confirm it: the transitions as run, the violation as the runtime reported it. nullopt
// when the run ended in something no property names (a failed rank, a runaway).
std::optional<checker::Result> runtime_result(const checker::System& model, const ScheduleRun& run);

// A shorter witness of the same violation on the model, within `seconds`, checked again.
checker::Result shrink(const checker::System& model, checker::Result result, double seconds);

}  // namespace ordo::fuzz
