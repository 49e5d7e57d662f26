#include "checker/verify_symbolic.hpp"

namespace ordo::checker {

SymbolicStage symbolic_stage(const Model&, double) {
  SymbolicStage stage;
  stage.note = "not built yet";
  return stage;
}

}  // namespace ordo::checker
