// What every party of a stuck state waits on: each unfinished rank's main thread, each op that
// holds a pool thread, and each op submitted but not started, so a deadlock report names the cycle.
#pragma once

#include "checker/system/model.hpp"
#include "checker/system/state.hpp"
#include "runtime/comm/rules/violation.hpp"

namespace ordo::checker {

// Requires that no transition is enabled in `state` and that some rank has not finished.
comm::Deadlock describe_deadlock(const Model& model, const State& state);

// Whether a collective takes part in the stuck state: a call issued and not matched. A deadlock
// without one is a rank that cannot finish alone (P4); with one, ranks wait on each other (P3).
bool collective_pending(const State& state);

}  // namespace ordo::checker
