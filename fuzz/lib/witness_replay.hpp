// Replays an unsafe verdict's witness on the runtime's controlled run (replay::replay) and
// compares where it ends with what the checker reported (replay::problem), with the
// context a failing property prints.
#pragma once

#include <optional>
#include <string>

#include "checker/search/verdict.hpp"
#include "checker/system/system.hpp"
#include "fuzz/lib/instance.hpp"
#include "runtime/exec/controlled_run.hpp"

namespace ordo::fuzz {

// nullopt when the witness of `result` (an unsafe answer on `model`, from the explicit or the
// symbolic checker) replays and ends in the reported violation (the same property and the same
// violation, field by field); otherwise what went wrong, with the runtime's transitions and the
// checker's report.
std::optional<std::string> replay_problem(const Instance& instance, const checker::System& model,
                                          const checker::Result& result);

}  // namespace ordo::fuzz
