#include "fuzz/props/schedule_tally.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>

namespace ordo::fuzz {

namespace {

struct Totals {
  std::uint64_t instances = 0;
  std::uint64_t runs = 0;
  std::uint64_t transitions = 0;
};

Totals& totals() {
  static Totals t;
  return t;
}

// Prints after the last test of the program; shrinking runs are included.
class Report : public ::testing::Environment {
 public:
  void TearDown() override {
    const Totals& t = totals();
    if (t.runs == 0) return;
    std::cout << "schedules: " << t.runs << " controlled runs (" << t.transitions
              << " transitions) on " << t.instances << " instances\n";
  }
};

// GoogleTest owns and deletes registered environments.
[[maybe_unused]] ::testing::Environment* const report =
    ::testing::AddGlobalTestEnvironment(new Report);

}  // namespace

void tally(const ScheduleSummary& summary) {
  Totals& t = totals();
  ++t.instances;
  t.runs += summary.runs;
  t.transitions += summary.transitions;
}

}  // namespace ordo::fuzz
