#include "runtime/bounds/seconds.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

namespace ordo::bounds {

SecondsRead read_seconds(std::string_view text) {
  SecondsRead read;
  const std::string copy(text);
  char* end = nullptr;
  // strtod, not stod: an out-of-range value comes back as HUGE_VAL (refused below as not finite)
  // instead of an exception.
  const double value = copy.empty() ? 0.0 : std::strtod(copy.c_str(), &end);
  const bool whole = !copy.empty() && end == copy.c_str() + copy.size() &&
                     copy.find_first_of(" \t\n") == std::string::npos;
  if (!whole || !std::isfinite(value) || value <= 0.0) {
    read.problem =
        "'" + copy + "' is not a time limit; expected a finite number of seconds above 0";
    return read;
  }
  read.seconds = value;
  return read;
}

Clock::duration saturated_duration(double seconds) {
  if (!(seconds > 0.0)) return Clock::duration::zero();
  using Ticks = std::chrono::duration<double, Clock::period>;
  const double ticks = Ticks(std::chrono::duration<double>(seconds)).count();
  // The largest tick count a double can hold below the clock's maximum (2^63 - 1 itself rounds up
  // to 2^63, which would overflow on the way back).
  const double max_ticks = static_cast<double>(Clock::duration::max().count()) * (1.0 - 1e-15);
  if (!(ticks < max_ticks)) return Clock::duration::max();
  return Clock::duration(static_cast<Clock::rep>(ticks));
}

Clock::time_point deadline_after(Clock::time_point from, double seconds) {
  const Clock::duration span = saturated_duration(seconds);
  if (span >= Clock::time_point::max() - from) return Clock::time_point::max();
  return from + span;
}

std::uint64_t whole_seconds(double seconds) {
  if (!(seconds >= 1.0)) return 0;
  // 2^64 as a double; anything at or past it saturates.
  if (seconds >= 18446744073709551616.0) return UINT64_MAX;
  return static_cast<std::uint64_t>(seconds);
}

double seconds_until(Clock::time_point deadline) {
  const Clock::time_point now = Clock::now();
  // Both differences fit: a steady clock's now is far from either end of its range.
  return deadline >= now ? std::chrono::duration<double>(deadline - now).count()
                         : -std::chrono::duration<double>(now - deadline).count();
}

}  // namespace ordo::bounds
