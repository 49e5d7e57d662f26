// The embedded default job: train a small MLP for a few SGD steps on the dependency engine, check
// the weights bitwise against the same ops run sequentially, and check that the program the
// engine recorded is a valid dump that round-trips.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <vector>

#include "runtime/dag/program.hpp"
#include "runtime/demo/mlp_step.hpp"

namespace ordo::demo {

struct DemoOptions {
  MlpShape shape;
  std::uint32_t steps = 5;
  std::uint32_t compute_threads = 2;
  std::uint64_t seed = 1;
};

struct StepResult {
  float loss = 0.0f;
  double wall_ms = 0.0;
};

struct DemoReport {
  DemoOptions options;
  std::vector<StepResult> steps;
  std::uint64_t ops_run = 0;
  std::uint32_t ops_concurrent_max = 0;  // most op functions seen running at once
  bool weights_match_reference = false;
  dag::Job recorded;
  std::uint64_t recorded_diagnostics = 0;  // validation problems in the recorded job
  bool dump_round_trips = false;
};

DemoReport run_engine_demo(const DemoOptions& options);
void print_report(std::ostream& out, const DemoReport& report);
// Whether everything the demo checks came out right.
bool demo_succeeded(const DemoReport& report);

}  // namespace ordo::demo
