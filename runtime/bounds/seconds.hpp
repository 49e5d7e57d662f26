// A time bound as a user gives it (`--timeout 60`, `--hang-timeout 1e12`) and as the code keeps
// it. The text is read once, the same way for every option; the seconds become a clock duration
// or deadline that saturates at the clock's end instead of wrapping round: 1e12 s in nanoseconds
// passes INT64_MAX, and a deadline that wrapped to the past turned a long bound into an instant
// `unknown`.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ordo::bounds {

using Clock = std::chrono::steady_clock;

// The seconds `text` says, or why it is no time bound: a finite number above 0, written whole
// ("60", "0.5", "1e12"). "nan" compares false with everything and "inf" never runs out, so either
// would turn the bound off; 0 and below would end every command at once.
struct SecondsRead {
  double seconds = 0.0;
  std::optional<std::string> problem;  // set when the text is no time bound
};
SecondsRead read_seconds(std::string_view text);

// `seconds` as a clock duration: 0 for NaN or anything at or below 0, the clock's longest
// duration for anything beyond it.
Clock::duration saturated_duration(double seconds);

// `from` plus `seconds`, at most the clock's last time point (a bound that never falls).
Clock::time_point deadline_after(Clock::time_point from, double seconds);

// `seconds` as a whole count for a report ("bound seconds_max = 60 reached"): floored, 0 for NaN
// or below, saturating at 2^64 - 1 where a cast would be undefined.
std::uint64_t whole_seconds(double seconds);

// Seconds from now until `deadline`: negative once it has passed, huge (not overflowed) for a
// deadline at the clock's end.
double seconds_until(Clock::time_point deadline);

}  // namespace ordo::bounds
