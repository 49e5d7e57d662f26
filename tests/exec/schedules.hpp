// Scripted schedules for controlled runs: take legal transitions in a fixed preference order,
// holding back the transitions a test wants to place itself.
#pragma once

#include <functional>
#include <string>

#include "runtime/exec/controlled_run.hpp"

namespace ordo::exec::testing {

using TransitionFilter = std::function<bool(const ControlledRun&, const dag::Transition&)>;

// Takes the first legal transition that `hold` does not hold back, until none is left; returns the
// number taken. Bounded by `transitions_max` so a test can never spin.
std::size_t run_while(ControlledRun& run, const TransitionFilter& hold = {},
                      std::size_t transitions_max = 100000);

// The op id named `name` in the rank's program; fails the test if there is none.
dag::OpId op_id(const ControlledRun& run, dag::Rank rank, const std::string& name);

// Holds back the completion of every op whose name contains `fragment`.
TransitionFilter hold_completion_of(std::string fragment);

}  // namespace ordo::exec::testing
