// The critical transition of a witness: the first transition after which no execution can finish
// without a violation. Before it the job could still have gone right; a user fixing the program
// looks at the decision that transition made (which op a pool started, which op completed first).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "checker/search/explore.hpp"
#include "checker/system/state.hpp"
#include "checker/system/system.hpp"
#include "runtime/dag/transition.hpp"

namespace ordo::checker {

enum class Reach : std::uint8_t { yes, no, unknown };

// Whether some execution from `from` finishes every rank with no violation on the way. `no` is a
// proof (every reachable state was searched, with the same reductions as explore), `unknown`
// means a limit was hit.
Reach can_finish(const System& model, const State& from, const ExploreLimits& limits);

// The number of witness transitions after which the job is doomed (1 means the first transition
// already sealed it; 0 means even the initial state cannot finish; the witness size when only its
// last, violating transition seals it), or nullopt when a search hit its limit. `limits` bound each
// search; at most log2(witness size) + 2 searches run.
std::optional<std::size_t> critical_transition(const System& model,
                                               const std::vector<dag::Transition>& witness,
                                               const ExploreLimits& limits);

}  // namespace ordo::checker
