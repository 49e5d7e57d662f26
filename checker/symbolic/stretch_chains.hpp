// Theorem 4 (docs/symbolic.md): a class of programs closed under repeating their steps. A
// program's *stretches* are its main actions between two wait_for_all. If every call of a
// stretch is an op (none on the main thread) and all of them write one var, the writes of that
// var chain them in submit order on every schedule, and the stretch's last call completes
// before the next stretch submits anything. Repeating a step, with or without a wait_for_all
// between the copies, keeps every call writing its stretch's var, so the program of a run of
// any number of steps is in the class whenever the verified one is.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::checker::symbolic {

// Per stretch that holds calls, in order: the name of a var every call of it writes (a token if
// one is shared, else the first shared var). nullopt when some stretch has a main-thread call or
// calls with no var written by them all, or when the program has no call.
std::optional<std::vector<std::string>> stretch_chains(const dag::Program& program);

}  // namespace ordo::checker::symbolic
