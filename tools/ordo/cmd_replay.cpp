// `ordo replay`: run a saved schedule (an `ordo verify --trace` witness) on the runtime's
// controlled scheduler and simulated world, and say whether it ends as the trace claims.
#include <iostream>
#include <memory>
#include <string>

#include "checker/witness/trace_io.hpp"
#include "replay/replay.hpp"
#include "runtime/errors/input_error.hpp"
#include "runtime/json/file.hpp"
#include "tools/ordo/commands.hpp"
#include "tools/ordo/job_input.hpp"

namespace ordo::tools {

namespace {

struct ReplayCli {
  JobInput input;
  std::string trace_path;
};

checker::Trace load_trace(const std::string& path) {
  const std::string text = json::read_json_file(path, "trace");
  try {
    return checker::read_trace(text);
  } catch (const errors::InputError& e) {
    throw errors::InputError(path + ": " + e.where(), e.problem(), e.expected());
  }
}

int run_replay(const ReplayCli& o) {
  dag::Job job;
  checker::Trace trace;
  try {
    trace = load_trace(o.trace_path);
    // The trace's rank count is the job's: a design written for its rank count is fitted to it.
    JobInput input = o.input;
    input.ranks = trace.ranks;
    job = input.load();
  } catch (const errors::InputError& e) {
    std::cerr << "ordo replay: error: " << e.what() << '\n';
    return exit_bad_input;
  }
  const checker::System model(job, trace.ranks, trace.backend);
  if (const std::optional<std::string> bad = checker::trace_mismatch(model, trace)) {
    std::cerr << "ordo replay: error: " << o.trace_path << " does not fit the job: " << *bad
              << '\n';
    return exit_bad_input;
  }
  exec::ControlledRun run(job, trace.ranks, {}, trace.backend);
  const replay::Replay r = replay::replay(run, trace.transitions);
  if (r.illegal) {
    std::cerr << "ordo replay: error: " << *r.illegal << '\n';
    return exit_bad_input;
  }
  std::cout << "replayed " << r.transitions_taken << " of " << trace.transitions.size()
            << " transitions on " << trace.ranks << " simulated ranks ("
            << comm::to_string(trace.backend) << " semantics)\n";
  if (r.outcome) {
    std::cout << "the run ended: " << (r.outcome->report.empty() ? "finished" : r.outcome->report)
              << '\n';
  } else {
    std::cout << "the run has not ended after the last transition\n";
  }
  if (!trace.property) {
    const bool done = r.outcome && r.outcome->end == exec::RunEnd::finished;
    std::cout << (done ? "as the trace says: no violation\n" : "the trace claims no violation\n");
    return done ? exit_ok : exit_unsafe;
  }
  // The runtime tells P3 from P4 as the checker does, by the deadlock's description.
  const bool reproduced = r.transitions_taken == trace.transitions.size() && r.seen &&
                          *checker::parse_property(*trace.property) == *r.seen;
  std::cout << (reproduced ? "reproduced: " : "NOT reproduced: ") << *trace.property
            << " as the trace claims\n";
  return reproduced ? exit_ok : exit_unsafe;
}

}  // namespace

Command add_replay(CLI::App& app) {
  auto o = std::make_shared<ReplayCli>();
  auto paths = std::make_shared<PathOptions>();
  CLI::App* sub = app.add_subcommand(
      "replay", "Run a saved schedule on the runtime's controlled scheduler and simulated world");
  o->input.add_options(sub, *paths, "DAG dump the trace was found on");
  paths->input_file(
      sub->add_option("--trace", o->trace_path, "trace file written by `ordo verify --trace`")
          ->required(),
      o->trace_path);
  return {[o] { return run_replay(*o); }, paths};
}

}  // namespace ordo::tools
