// The symbolic stage of verify(): runs the Z3 path (checker/symbolic) and turns its answer into
// a Verification, or says why it did not decide so that explicit search takes over.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/system/system.hpp"
#include "checker/verify/verify.hpp"

namespace ordo::checker {

struct SymbolicStage {
  std::optional<Verification> decided;  // result, facts, every_rank_count
  std::vector<std::string> facts;       // what was proven even when undecided
  std::string note;                     // why it did not decide
};

SymbolicStage symbolic_stage(const System& model, double seconds_max);

}  // namespace ordo::checker
