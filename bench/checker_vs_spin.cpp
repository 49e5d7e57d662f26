// ordo's explicit checker against SPIN on the same instances: each design's step at growing key,
// thread and rank counts, exported to Promela (docs/promela.md) and searched by both, until SPIN
// no longer finishes within the time limit. It reports the time to a verdict and the states per
// second of each, SPIN's compile time apart, and the ratios. Not a Google Benchmark: one search
// per instance is the measurement, and the table is the output.
//
//   ordo_checker_vs_spin [--seconds S]   (default 60)
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "checker/promela/export.hpp"
#include "checker/promela/spin_run.hpp"
#include "checker/search/explore.hpp"
#include "checker/verify/verify.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/networks/network.hpp"

namespace {

using namespace ordo;

struct Point {
  std::string label;
  dag::Job job;
  std::uint32_t ranks = 2;
};

designs::DesignConfig design(designs::DesignKind kind, std::uint32_t threads) {
  designs::DesignConfig c;
  c.kind = kind;
  c.compute_threads = threads;
  c.comm_threads = threads;
  return c;
}

dag::Job step(std::uint32_t layers, const designs::DesignConfig& config) {
  return designs::build_step_job(networks::mlp(layers, 2, 1.0), config, {});
}

// One axis grows while the others stay at their smallest interesting value; `make(n)` gives the
// n-th point, and the axis stops at the first point SPIN cannot finish.
struct Axis {
  std::string name;
  std::function<Point(std::uint32_t)> make;
};

std::vector<Axis> axes() {
  using designs::DesignKind;
  return {
      {"keys (depcha, 2 ranks)",
       [](std::uint32_t n) {
         return Point{std::to_string(2 * n) + " keys", step(n, design(DesignKind::depcha, 2)), 2};
       }},
      {"keys (funnel, 2 ranks)",
       [](std::uint32_t n) {
         return Point{std::to_string(2 * n) + " keys", step(n, design(DesignKind::funnel, 2)), 2};
       }},
      {"threads (depcha, 2 keys, 2 ranks)",
       [](std::uint32_t n) {
         return Point{std::to_string(n) + " threads per pool",
                      step(1, design(DesignKind::depcha, n)), 2};
       }},
      {"ranks (depcha, 2 keys)",
       [](std::uint32_t n) {
         return Point{std::to_string(n + 1) + " ranks", step(1, design(DesignKind::depcha, 2)),
                      n + 1};
       }},
  };
}

std::string verdict_of(const checker::Result& r) {
  if (r.verdict != checker::Verdict::unsafe) return std::string(checker::to_string(r.verdict));
  return "unsafe " + std::string(checker::to_string(*r.property)).substr(0, 2);
}

std::string fixed(double value, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << value;
  return out.str();
}

std::string ratio(double a, double b) { return b > 0 ? fixed(a / b, 1) + "x" : "-"; }

// Returns whether SPIN finished.
bool measure(const Point& point, double seconds) {
  const checker::System model(point.job, point.ranks);
  const checker::Result ordo = checker::explore(model, {50'000'000, seconds});
  // What a user gets from `ordo verify`: the symbolic stage first, explicit search after.
  checker::VerifyOptions verify_options;
  verify_options.limits = {50'000'000, seconds};
  const checker::Verification verified = checker::verify(model, verify_options);
  checker::promela::SpinOptions options;
  options.seconds_max = seconds;
  options.hash_bits = 24;
  options.memory_mb = 12 * 1024;
  const checker::promela::SpinResult spin = checker::promela::run_spin(
      checker::promela::export_promela(model), checker::promela::spin_hints(model), options);
  const bool spin_done = spin.verdict != checker::promela::SpinVerdict::incomplete;
  const double spin_rate = spin.search_seconds > 0 ? spin.states_stored / spin.search_seconds : 0;
  std::cout << "| " << point.label << " | " << verdict_of(ordo) << " | " << ordo.stats.states
            << " | " << fixed(ordo.stats.seconds, 3) << " | "
            << fixed(ordo.stats.states_per_second, 0) << " | "
            << (spin_done ? std::string(checker::promela::to_string(spin.verdict))
                          : "stopped: " + spin.incomplete_why)
            << " | " << fixed(spin.states_stored, 0) << " | " << fixed(spin.compile_seconds, 2)
            << " | " << fixed(spin.search_seconds, 3) << " | " << fixed(spin_rate, 0) << " | "
            << ratio(spin.search_seconds, ordo.stats.seconds) << " | "
            << ratio(spin.compile_seconds + spin.search_seconds, ordo.stats.seconds) << " | "
            << ratio(ordo.stats.states_per_second, spin_rate) << " | "
            << verdict_of(verified.result) << " (" << checker::to_string(verified.decided_by)
            << ") | " << fixed(verified.seconds, 3) << " | "
            << ratio(spin.compile_seconds + spin.search_seconds, verified.seconds) << " |"
            << std::endl;
  return spin_done;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 60.0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else {
      std::cerr << "usage: ordo_checker_vs_spin [--seconds S]\n";
      return 2;
    }
  }
  if (seconds <= 0) {
    std::cerr << "ordo_checker_vs_spin: --seconds must be positive\n";
    return 2;
  }
  std::cout << "Each search is limited to " << seconds << " s. Ratios: SPIN's time over ordo's "
            << "explicit search (search alone, then with pan's compile), ordo's states per second "
               "over SPIN's, and SPIN's time with compile over `ordo verify` (symbolic stage, then "
               "explicit search).\n";
  try {
    for (const Axis& axis : axes()) {
      std::cout << "\n"
                << axis.name << "\n\n"
                << "| instance | ordo verdict | ordo states | ordo s | ordo states/s | SPIN "
                   "verdict | SPIN states | SPIN compile s | SPIN search s | SPIN states/s | "
                   "time SPIN/ordo | with compile | rate ordo/SPIN | verify verdict | verify s | "
                   "SPIN (with compile)/verify |\n"
                << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
      // A bound on the points, should SPIN keep up further than expected.
      for (std::uint32_t n = 1; n <= 12; ++n) {
        if (!measure(axis.make(n), seconds)) break;
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "ordo_checker_vs_spin: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
