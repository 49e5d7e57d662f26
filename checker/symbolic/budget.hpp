// The wall-clock budget of one decision, shared by its Z3 queries and guided runs: each gets
// what is left, so the whole decision stays within SymbolicLimits::seconds_max.
#pragma once

#include <chrono>

namespace ordo::checker::symbolic {

class Budget {
 public:
  using Clock = std::chrono::steady_clock;

  explicit Budget(double seconds)
      : begin_(Clock::now()),
        end_(begin_ +
             std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds))) {}

  double left() const { return std::chrono::duration<double>(end_ - Clock::now()).count(); }
  bool spent() const { return left() <= 0.0; }
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - begin_).count(); }

 private:
  Clock::time_point begin_;
  Clock::time_point end_;
};

}  // namespace ordo::checker::symbolic
