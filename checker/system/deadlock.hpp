// A stuck state as a deadlock's description (comm::Deadlock): each unfinished rank's main thread,
// each op it submitted and has not completed, the calls in flight and the streams, built by the
// description's one builder (runtime/comm/rules/deadlock.hpp) from this state, so that the checker
// and the runtime describe one stuck state alike. Whether it is P3 or P4 is the description's
// (comm::collective_involved), and the property's (checker::property_of).
#pragma once

#include "checker/system/state.hpp"
#include "checker/system/system.hpp"
#include "runtime/comm/rules/violation.hpp"

namespace ordo::checker {

// Requires that no transition is enabled in `state` and that some rank has not finished.
comm::Deadlock describe_deadlock(const System& model, const State& state);

}  // namespace ordo::checker
