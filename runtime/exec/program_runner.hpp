// Runs a program's main-thread actions, in order, on an executor: what a rank's main thread does
// when the runtime replays a dump instead of a live design.
#pragma once

#include "runtime/dag/program.hpp"
#include "runtime/exec/executor.hpp"

namespace ordo::exec {

// Adds the program's vars to the executor, which must have none yet, so var ids agree.
void declare_vars(Executor& executor, const dag::Program& program);
// Carries out every main action in order; exceptions from waits and collectives propagate. Marks
// the executor finished after the last action, or on the way out of an exception.
void run_actions(Executor& executor, const dag::Program& program);
// Both.
void run_program(Executor& executor, const dag::Program& program);

}  // namespace ordo::exec
