#include "fuzz/lib/budget.hpp"

#include <cstdlib>
#include <string>

namespace ordo::fuzz {

namespace {

double from_env(const char* name, double fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  return std::stod(text);
}

}  // namespace

// The states bound decides which draws a property checks (an `unknown` is only tagged, and the
// coverage test counts them): the time bound is a hang catcher far above any search of 50,000
// states (the 33,000-state hand-derived case takes 8.5 s under ASan), so that load never turns
// a decided draw into an unknown one.
checker::ExploreLimits explore_limits() {
  return {static_cast<std::uint64_t>(from_env("ORDO_FUZZ_STATES_MAX", 50'000)),
          from_env("ORDO_FUZZ_SECONDS_MAX", 120.0)};
}

std::uint64_t schedules_per_instance() {
  return 2 * static_cast<std::uint64_t>(from_env("ORDO_FUZZ_SCHEDULES", 50));
}

std::uint64_t spin_states_max() {
  return static_cast<std::uint64_t>(from_env("ORDO_FUZZ_SPIN_STATES_MAX", 3000));
}

double spin_seconds_max() { return from_env("ORDO_FUZZ_SPIN_SECONDS_MAX", 20.0); }

}  // namespace ordo::fuzz
