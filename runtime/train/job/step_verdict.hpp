// The step program's verdict before any rank trains (docs/train.md, "`ordo train`"). Every rank
// builds its step program; the ranks check that all built rank 0's, rank 0 has the checker decide
// it, and every rank acts on rank 0's answer. One rank decides, not each its own: under a time
// limit two ranks deciding alike could still part (one `safe`, one out of time), and a rank that
// stops while the others train leaves them waiting in a collective for ever.
#pragma once

#include <iosfwd>
#include <string>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/rules/backend.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/networks/network.hpp"
#include "runtime/train/job/job_options.hpp"
#include "runtime/train/job/metrics_file.hpp"

namespace ordo::train {

// The broadcast and two steps: the step, and the boundary into the next. Every design emits the
// same program at every step (tests/designs/steps_repeat_test.cpp), so a run of any length repeats
// what is verified here. `dump` is the program as a DAG dump, which a hang dump is written beside.
struct StepProgram {
  dag::Job job;
  std::string dump;
};
StepProgram build_step_program(const networks::Network& net, const designs::DesignConfig& config);

// Collective, the main thread's, before any op is submitted. `backend` is the semantics the
// step's collectives run under. Rank 0 writes --dump-step, runs the checker and reports to `out`
// (and `metrics`); every rank returns rank 0's exit code: 0 to train, or why not.
int agree_on_verdict(const JobOptions& o, const designs::DesignConfig& config,
                     const networks::Network& net, StepProgram program, comm::World& world,
                     comm::Backend backend, MetricsFile* metrics, std::ostream& out);

}  // namespace ordo::train
