// How hard each property works on one instance: the checker's bounds and the schedules run on
// the runtime. CI keeps the defaults (the whole suite in about two minutes); a long campaign
// raises them through the environment:
//   ORDO_FUZZ_STATES_MAX   distinct states before the checker answers unknown (default 50000)
//   ORDO_FUZZ_SECONDS_MAX  seconds before it answers unknown (default 120: a hang catcher; the
//   states bound decides) ORDO_FUZZ_SCHEDULES    random walks, and as many PCT runs, per safe
//   instance (default 50;
//                          schedule_mix.hpp runs them alternately)
//   ORDO_FUZZ_SPIN_STATES_MAX  instances the explicit checker decides in more states are not
//                          given to SPIN (default 3000)
//   ORDO_FUZZ_SPIN_SECONDS_MAX  seconds of one SPIN search before it is incomplete (default 20)
#pragma once

#include <cstdint>

#include "checker/search/explore.hpp"

namespace ordo::fuzz {

checker::ExploreLimits explore_limits();
// Random walks and PCT runs together: twice ORDO_FUZZ_SCHEDULES.
std::uint64_t schedules_per_instance();
std::uint64_t spin_states_max();
double spin_seconds_max();

}  // namespace ordo::fuzz
