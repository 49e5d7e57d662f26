#include "tests/exec/schedules.hpp"

#include <gtest/gtest.h>

namespace ordo::exec::testing {

std::size_t run_while(ControlledRun& run, const TransitionFilter& hold,
                      std::size_t transitions_max) {
  std::size_t taken = 0;
  for (; taken < transitions_max; ++taken) {
    bool moved = false;
    for (const dag::Transition& s : run.legal_transitions()) {
      if (hold && hold(run, s)) continue;
      run.take(s);
      moved = true;
      break;
    }
    if (!moved) return taken;
  }
  ADD_FAILURE() << "schedule still running after " << transitions_max << " transitions";
  return taken;
}

dag::OpId op_id(const ControlledRun& run, dag::Rank rank, const std::string& name) {
  const dag::Program& p = run.program(rank);
  for (dag::OpId id = 0; id < p.ops.size(); ++id) {
    if (p.ops[id].name == name) return id;
  }
  ADD_FAILURE() << "no op '" << name << "' on rank " << rank;
  return 0;
}

TransitionFilter hold_completion_of(std::string fragment) {
  return [fragment](const ControlledRun& run, const dag::Transition& s) {
    return s.kind == dag::Transition::Kind::complete &&
           run.program(s.rank).ops.at(s.op).name.find(fragment) != std::string::npos;
  };
}

}  // namespace ordo::exec::testing
