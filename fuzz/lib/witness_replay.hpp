// Replays an unsafe verdict's witness on the runtime's controlled run and compares where it ends
// with what the checker reported. The checker and the runtime name transitions the same way (rank,
// main / start / complete, program op id, pool thread), so the witness replays as written.
#pragma once

#include <optional>
#include <string>

#include "checker/search/verdict.hpp"
#include "checker/system/model.hpp"
#include "fuzz/lib/instance.hpp"
#include "runtime/exec/controlled_run.hpp"

namespace ordo::fuzz {

// nullopt when the witness of `result` (an unsafe answer on `model`, from the explicit or the
// symbolic checker) replays and ends in the reported violation; otherwise what went wrong, with
// the checker's report and the runtime's transitions.
std::optional<std::string> replay_problem(const Instance& instance, const checker::Model& model,
                                          const checker::Result& result);

}  // namespace ordo::fuzz
