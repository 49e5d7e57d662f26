// Time bounds as users write them, and the deadlines they become, at the edges of double and of
// the clock's 64-bit nanoseconds.
#include "runtime/bounds/seconds.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace ordo::bounds {
namespace {

TEST(ReadSeconds, TakesFiniteNumbersAboveZero) {
  EXPECT_EQ(read_seconds("60").seconds, 60.0);
  EXPECT_EQ(read_seconds("0.5").seconds, 0.5);
  EXPECT_EQ(read_seconds("1e12").seconds, 1e12);
  EXPECT_EQ(read_seconds("1e300").seconds, 1e300);
  EXPECT_FALSE(read_seconds("1e-9").problem);
}

TEST(ReadSeconds, RefusesWhatWouldTurnTheBoundOffOrEndEverythingAtOnce) {
  for (const char* text :
       {"0", "-1", "-0", "nan", "inf", "-inf", "1e400", "", " 5", "5 ", "5s", "0x", "1e", "--1"}) {
    const SecondsRead read = read_seconds(text);
    ASSERT_TRUE(read.problem) << "'" << text << "'";
    EXPECT_EQ(*read.problem,
              "'" + std::string(text) +
                  "' is not a time limit; expected a finite number of seconds above 0");
  }
}

TEST(SaturatedDuration, HoldsEveryBoundWithoutWrapping) {
  EXPECT_EQ(saturated_duration(0.0), Clock::duration::zero());
  EXPECT_EQ(saturated_duration(-5.0), Clock::duration::zero());
  EXPECT_EQ(saturated_duration(std::numeric_limits<double>::quiet_NaN()), Clock::duration::zero());
  EXPECT_EQ(saturated_duration(1.5), std::chrono::milliseconds(1500));
  // 1e9 s still fits in int64 nanoseconds; 1e10 s does not (9.2e18 ns is about 292 years).
  EXPECT_EQ(saturated_duration(1e9), std::chrono::seconds(1'000'000'000LL));
  EXPECT_EQ(saturated_duration(1e10), Clock::duration::max());
  EXPECT_EQ(saturated_duration(1e12), Clock::duration::max());
  EXPECT_EQ(saturated_duration(1e300), Clock::duration::max());
  EXPECT_EQ(saturated_duration(std::numeric_limits<double>::infinity()), Clock::duration::max());
}

TEST(DeadlineAfter, ALongBoundIsInTheFarFutureNeverThePast) {
  const Clock::time_point now = Clock::now();
  for (const double s : {1e9, 2e10, 1e12, 1e18, 1e300}) {
    const Clock::time_point deadline = deadline_after(now, s);
    EXPECT_GT(deadline, now + std::chrono::hours(24 * 365)) << s;
    EXPECT_GT(seconds_until(deadline), 3e7) << s;
  }
  EXPECT_EQ(deadline_after(now, 1e300), Clock::time_point::max());
  EXPECT_EQ(deadline_after(now, 0.0), now);
  EXPECT_EQ(deadline_after(now, 2.0), now + std::chrono::seconds(2));
  EXPECT_LT(seconds_until(now - std::chrono::seconds(3)), -2.0);
}

TEST(WholeSeconds, FloorsAndSaturates) {
  EXPECT_EQ(whole_seconds(60.9), 60u);
  EXPECT_EQ(whole_seconds(0.5), 0u);
  EXPECT_EQ(whole_seconds(-3.0), 0u);
  EXPECT_EQ(whole_seconds(1e12), 1'000'000'000'000u);
  EXPECT_EQ(whole_seconds(1e300), UINT64_MAX);
  EXPECT_EQ(whole_seconds(std::numeric_limits<double>::quiet_NaN()), 0u);
}

}  // namespace
}  // namespace ordo::bounds
