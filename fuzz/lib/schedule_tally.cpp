#include "fuzz/lib/schedule_tally.hpp"

#include <cstdint>
#include <iostream>

namespace ordo::fuzz {

namespace {

// Prints as the program exits, after its last test; shrinking runs are included. Built on the
// first tally, after the standard streams, so it is destroyed before them.
struct Totals {
  std::uint64_t instances = 0;
  std::uint64_t runs = 0;
  std::uint64_t transitions = 0;

  ~Totals() {
    if (runs == 0) return;
    std::cout << "schedules: " << runs << " controlled runs (" << transitions << " transitions) on "
              << instances << " instances\n";
  }
};

Totals& totals() {
  static Totals t;
  return t;
}

}  // namespace

void tally(const ScheduleSummary& summary) {
  Totals& t = totals();
  ++t.instances;
  t.runs += summary.runs;
  t.transitions += summary.transitions;
}

}  // namespace ordo::fuzz
