// The wall-clock budget of one decision, shared by its Z3 queries and guided runs: each gets
// what is left, so the whole decision stays within SymbolicLimits::seconds_max.
#pragma once

#include <chrono>

#include "runtime/bounds/seconds.hpp"

namespace ordo::checker::symbolic {

class Budget {
 public:
  using Clock = std::chrono::steady_clock;

  explicit Budget(double seconds)
      : begin_(Clock::now()), end_(bounds::deadline_after(begin_, seconds)) {}

  double left() const { return bounds::seconds_until(end_); }
  bool spent() const { return left() <= 0.0; }
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - begin_).count(); }

 private:
  Clock::time_point begin_;
  Clock::time_point end_;
};

}  // namespace ordo::checker::symbolic
