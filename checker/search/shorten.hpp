// Shorter witnesses. Depth-first search returns the first violating path it meets, which drags
// along transitions that have nothing to do with the violation (another rank's forward pass, say).
// Removing chunks of transitions, largest first, while the rest still reaches the same kind of
// violation on the same transition system, leaves a witness a person can read.
#pragma once

#include <vector>

#include "checker/search/verdict.hpp"
#include "checker/system/system.hpp"

namespace ordo::checker {

// `result` must be unsafe with its witness. Returns it with a witness no longer than before
// (usually much shorter) and the violation that witness reaches; the property is unchanged.
// Stops improving after `seconds_max`, keeping the best witness so far.
Result shorten(const System& model, Result result, double seconds_max);

}  // namespace ordo::checker
