// The transitions enabled in a state and the effect of taking one. Readiness and dispatch are the
// engine rules' (peek_next, lowest_free_thread, start_next, thread_returned, complete); this
// file adds only what the rules leave to their driver: the main thread's actions and the
// collectives' matching.
#pragma once

#include <optional>
#include <vector>

#include "checker/system/state.hpp"
#include "checker/system/system.hpp"
#include "runtime/dag/transition.hpp"

namespace ordo::checker {

// Per rank in rank order: the main thread's action if enabled, then per pool in id order the
// start of the op its run queue pops next on the lowest free thread, then the completion of every
// op that may complete, in op id order. Threads of one pool are interchangeable, so starting on
// the lowest free one is a naming choice, not a loss of schedules (the runtime's controlled
// scheduler offers the same choice).
std::vector<dag::Transition> enabled_transitions(const System& model, const State& state);
// The same into `out`, replacing what it held (a search reuses its buffer).
void enabled_transitions(const System& model, const State& state,
                         std::vector<dag::Transition>& out);

// Whether the rank's main thread can take its next action: not past its last action, a wait's
// condition holds, and not blocked in a collective unless that call may return before its match
// (C4), which is then the action.
bool main_enabled(const System& model, const RankState& r, dag::Rank rank);

// Whether `transition`, enabled in `state`, is a call returning before its match (C4): the main
// thread of a rank blocked in its call, or the completion of an op whose call is unmatched.
bool returns_early(const State& state, const dag::Transition& transition);

// A deadlock (P3, P4): the job has not finished and nothing in `enabled` (the state's enabled
// transitions) moves but early returns. Deadlock freedom is judged under the synchronising
// reading (C4): an MPI library may make every call wait for every member, so a state where only
// early returns could move is one where such a library hangs.
bool stuck(const System& model, const State& state, const std::vector<dag::Transition>& enabled);
bool stuck(const System& model, const State& state);

// Takes one enabled transition. Returns the violation the transition causes (a mismatch or a
// thread-rule break at the moment a collective is issued), if any; the state is then not meaningful
// beyond it. Throws std::logic_error for a transition that is not enabled.
std::optional<comm::Violation> apply(const System& model, State& state,
                                     const dag::Transition& transition);

}  // namespace ordo::checker
