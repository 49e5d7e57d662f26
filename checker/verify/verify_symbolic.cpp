#include "checker/verify/verify_symbolic.hpp"

#include "checker/symbolic/decide.hpp"

namespace ordo::checker {

SymbolicStage symbolic_stage(const System& model, double seconds_max) {
  symbolic::SymbolicLimits limits;
  // Half the budget at most: what the symbolic stage cannot decide, explicit search still may.
  limits.seconds_max = seconds_max / 2.0;
  symbolic::SymbolicResult s = symbolic::decide(model, limits);
  SymbolicStage stage;
  if (s.outcome == symbolic::SymbolicResult::Outcome::undecided) {
    stage.facts = std::move(s.facts);
    stage.note = std::move(s.undecided_reason);
    return stage;
  }
  Verification v;
  v.result = std::move(s.result);
  v.every_rank_count = s.outcome == symbolic::SymbolicResult::Outcome::safe && s.every_rank_count;
  v.facts = std::move(s.facts);
  stage.decided = std::move(v);
  return stage;
}

}  // namespace ordo::checker
