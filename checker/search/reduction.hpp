// Partial-order reduction: from a state, explore only an ample subset of the enabled transitions
// when that provably loses no violation and no deadlock. Ranks interact only through collectives,
// so a rank whose enabled transitions are all rank-local (none issues a collective) and that has no
// call in flight (nothing another rank does can change it) can take its transitions first: every
// other rank's transitions commute with them, and no transition of that rank can appear or vanish
// before one of them is taken. docs/checker.md gives the argument in full.
#pragma once

#include <vector>

#include "checker/system/state.hpp"
#include "checker/system/system.hpp"
#include "runtime/dag/transition.hpp"

namespace ordo::checker {

// Whether taking `transition` issues a collective: a main-thread collective action, or the issue
// transition of a claimed collective op. These are the only transitions that touch another rank's
// state or can violate P1/P2.
bool issues_collective(const System& model, const State& state, const dag::Transition& transition);

// The ample transitions: all enabled transitions of the lowest rank that qualifies as above, or
// `enabled` unchanged when no rank does. Never empty when `enabled` is not.
std::vector<dag::Transition> ample_transitions(const System& model, const State& state,
                                               const std::vector<dag::Transition>& enabled);
// The same in place: keeps only the ample transitions in `enabled`, in their order, and returns
// whether that dropped any.
bool reduce_to_ample(const System& model, const State& state,
                     std::vector<dag::Transition>& enabled);

}  // namespace ordo::checker
