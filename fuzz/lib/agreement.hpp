// The property `ordo fuzz` holds one case to: the checker's verdict and the runtime's schedules
// agree. Safe means every schedule finishes; unsafe means the checker's witness ends on the
// runtime in the violation it names; and every schedule that fails on the runtime fails the same
// way on the checker's model, transition for transition. Anything else is a disagreement: a bug
// in ordo, or a job whose model is not what the runtime runs.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "checker/search/verdict.hpp"
#include "checker/system/system.hpp"
#include "checker/verify/verify.hpp"
#include "fuzz/lib/fuzz_case.hpp"
#include "fuzz/lib/schedule_mix.hpp"

namespace ordo::fuzz {

// How the checker decides a case: checker::verify, unless a test puts a checker of its own here.
using Decider =
    std::function<checker::Verification(const checker::System&, const checker::VerifyOptions&)>;

struct CaseBudget {
  double checker_seconds = 10.0;  // the checker's share, witness shortening included
  std::uint64_t states_max = 5'000'000;
  // Growth of resident memory the checker's search may take (ExploreLimits::bytes_max).
  std::uint64_t bytes_max = std::uint64_t{4} << 30;
  std::uint32_t schedules = 100;
  // No schedule starts after this; the case's figures say how many ran.
  std::chrono::steady_clock::time_point schedules_until =
      std::chrono::steady_clock::time_point::max();
};

enum class CaseVerdict : std::uint8_t {
  safe,          // the checker proved it, and no schedule failed
  unsafe,        // a property fails: the checker's witness, or a failing schedule it confirms
  unknown,       // the checker hit its bound, and no schedule failed
  disagreement,  // the checker and the runtime contradict each other
};

struct CaseOutcome {
  CaseVerdict verdict = CaseVerdict::unknown;
  checker::Verification checked;  // the checker's answer
  std::uint64_t schedules_run = 0;
  std::optional<ScheduleRun> failing;          // the first schedule that did not finish
  std::optional<std::uint64_t> failing_index;  // its 1-based index
  double failing_seconds = 0.0;                // from the case's start to that schedule's end
  std::optional<checker::Result> witness;      // what to write as the trace, when there is one
  std::string message;                         // what was found, in words
  double seconds = 0.0;
};

// Decides `model` (the case's job at its rank count and backend) with `decide`, runs the budget's
// schedules from `seed` until one fails, and compares. `on_schedule` is called after each one.
CaseOutcome check_case(const FuzzCase& fuzz_case, const checker::System& model,
                       const Decider& decide, const CaseBudget& budget, std::uint64_t seed,
                       const std::function<void()>& on_schedule = {});

}  // namespace ordo::fuzz
