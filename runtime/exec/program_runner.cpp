#include "runtime/exec/program_runner.hpp"

#include <stdexcept>

namespace ordo::exec {

namespace {

struct FinishOnExit {
  Executor& executor;
  ~FinishOnExit() { executor.main_done(); }
};

}  // namespace

void declare_vars(Executor& executor, const dag::Program& program) {
  if (executor.buffers().size() != 0) {
    throw std::logic_error("declare_vars needs an executor without vars");
  }
  for (const dag::Var& v : program.vars) executor.add_var(v);
}

void run_program(Executor& executor, const dag::Program& program) {
  declare_vars(executor, program);
  run_actions(executor, program);
}

void run_actions(Executor& executor, const dag::Program& program) {
  const FinishOnExit finish{executor};
  for (const dag::Action& action : program.main) {
    if (const auto* p = std::get_if<dag::SubmitAction>(&action)) {
      executor.submit(program.ops.at(p->op));
    } else if (const auto* w = std::get_if<dag::WaitToReadAction>(&action)) {
      executor.wait_to_read(w->var);
    } else if (std::holds_alternative<dag::WaitForAllAction>(action)) {
      executor.wait_for_all();
    } else {
      executor.collective(std::get<dag::CollectiveAction>(action));
    }
  }
}

}  // namespace ordo::exec
