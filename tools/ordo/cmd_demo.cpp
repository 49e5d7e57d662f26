// `ordo demo` (also what `ordo` with no arguments runs): the embedded default job. It trains a
// small MLP on the engine, then runs every KVStore design on simulated ranks. With --mpi, run
// under mpirun, it runs the designs on the real MPI ranks instead.
#include <iostream>
#include <memory>
#include <string>

#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/dag/dump_writer.hpp"
#include "runtime/demo/designs_demo.hpp"
#include "runtime/demo/engine_demo.hpp"
#include "runtime/diag/debug_mode.hpp"
#include "runtime/diag/mpi/fingerprint_channels.hpp"
#include "runtime/diag/watchdog.hpp"
#include "runtime/diag/watched_worlds.hpp"
#include "tools/ordo/bound_options.hpp"
#include "tools/ordo/commands.hpp"
#include "tools/ordo/file_names.hpp"
#include "tools/ordo/output.hpp"

namespace ordo::tools {

namespace {

struct DemoCliOptions {
  demo::DemoOptions engine;
  demo::DesignsDemoOptions designs;
  std::uint32_t ranks = 4;
  bool mpi = false;
  std::string dump_path;
  double hang_timeout = 0.0;  // --mpi: 0 is ORDO_HANG_TIMEOUT, else the default
  std::string dump_dir = "ordo-dumps";
  bool check_collectives = false;  // --mpi; else ORDO_DEBUG=detail
};

// naive is in the table to show what goes wrong; only the other designs must come out right.
bool designs_ok(const std::vector<demo::DesignRow>& rows) {
  std::vector<demo::DesignRow> safe;
  for (const demo::DesignRow& r : rows) {
    if (r.config.kind != designs::DesignKind::naive) safe.push_back(r);
  }
  return demo::rows_ok(safe);
}

int run_mpi(const DemoCliOptions& o) {
  comm::MpiRuntime runtime(nullptr, nullptr);
  double hang_timeout = o.hang_timeout;
  bool check_collectives = o.check_collectives;
  try {
    if (hang_timeout == 0.0)
      hang_timeout = diag::hang_timeout_from_env().value_or(diag::hang_timeout_default_s);
    check_collectives = check_collectives || diag::check_collectives_from_env();
  } catch (const std::invalid_argument& e) {
    if (runtime.world_rank() == 0) std::cerr << "ordo demo: error: " << e.what() << '\n';
    return exit_bad_input;
  }
  std::vector<demo::DesignRow> rows;
  std::uint32_t ranks = 0;
  for (const designs::DesignConfig& config : demo::demo_designs(runtime.world_size())) {
    // naive may issue collectives in different orders on different ranks; on real MPI that
    // corrupts or hangs instead of being reported, so it only runs on simulated ranks.
    if (config.kind == designs::DesignKind::naive) continue;
    comm::MpiWorld mpi_world(runtime, designs::step_comms(config));
    const diag::FingerprintChannels fingerprints(mpi_world, check_collectives, false);
    // Each design's collectives are recorded and watched (docs/diagnostics.md); the rings only,
    // since the design's engine is the demo's own.
    diag::WatchOptions watch_options;
    fingerprints.give(watch_options);
    watch_options.flight_recorder = true;
    diag::WatchedWorlds watched(mpi_world, nullptr, designs::step_comms(config), watch_options);
    comm::World& world = watched.world();
    diag::WatchdogOptions watch;
    watch.timeout_s = hang_timeout;
    watch.dir = o.dump_dir;
    watch.abort = [&runtime](int code) { runtime.abort(code); };
    const diag::Watchdog watchdog(*watched.recorder(), watch);
    ranks = world.size();
    rows.push_back(demo::run_design_on(world, config, o.designs));
    if (world.rank() != 0) rows.pop_back();
  }
  if (!rows.empty()) {
    demo::print_rows(std::cout,
                     "KVStore designs on " + std::to_string(ranks) + " Open MPI ranks (" +
                         o.designs.network.name + ", " + std::to_string(o.designs.steps) +
                         " steps; rank 0's times):",
                     rows);
  }
  return designs_ok(rows) ? exit_ok : 1;
}

int run_demo(const DemoCliOptions& o) {
  if (o.mpi) return run_mpi(o);
  const demo::DemoReport report = demo::run_engine_demo(o.engine);
  demo::print_report(std::cout, report);
  if (!o.dump_path.empty()) {
    if (!write_output(o.dump_path, dag::write_dump(report.recorded), "demo")) {
      return exit_bad_input;
    }
    std::cout << "recorded program written to " << o.dump_path << '\n';
  }
  std::cout << '\n';
  const std::vector<demo::DesignRow> rows = demo::run_designs_simulated(o.ranks, o.designs);
  demo::print_rows(std::cout,
                   "KVStore designs on " + std::to_string(o.ranks) + " simulated ranks (" +
                       o.designs.network.name + ", " + std::to_string(o.designs.steps) + " steps):",
                   rows);
  return demo::demo_succeeded(report) && designs_ok(rows) ? exit_ok : 1;
}

}  // namespace

Command add_demo(CLI::App& app) {
  auto o = std::make_shared<DemoCliOptions>();
  auto paths = std::make_shared<PathOptions>();
  CLI::App* sub = app.add_subcommand("demo", "The embedded default job (what `ordo` runs)");
  sub->add_option("--layers", o->engine.shape.layers, "MLP layers")->check(CLI::Range(1, 64));
  sub->add_option("--width", o->engine.shape.width, "MLP units per layer")
      ->check(CLI::Range(1, 4096));
  sub->add_option("--batch", o->engine.shape.batch, "MLP samples per step")
      ->check(CLI::Range(1, 4096));
  sub->add_option("--steps", o->engine.steps, "MLP SGD steps")->check(CLI::Range(1, 10000));
  sub->add_option("--threads", o->engine.compute_threads, "compute pool threads")
      ->check(CLI::Range(1, 256));
  sub->add_option("--seed", o->engine.seed, "seed for weights and data");
  paths->output_file(
      sub->add_option("--dump", o->dump_path, "write the MLP's recorded program to this file"),
      o->dump_path);
  sub->add_option("--ranks", o->ranks, "simulated ranks for the designs")->check(CLI::Range(1, 64));
  sub->add_option("--design-steps", o->designs.steps, "training steps per design")
      ->check(CLI::Range(1, 1000));
  sub->add_flag("--mpi", o->mpi, "run the designs on the MPI ranks of this job (under mpirun)");
  sub->add_option("--hang-timeout", o->hang_timeout,
                  std::string("--mpi: seconds a collective may take before the rank dumps its "
                              "flight recorder and ends the job (default: ORDO_HANG_TIMEOUT, "
                              "else ") +
                      std::to_string(static_cast<int>(diag::hang_timeout_default_s)) + ")")
      ->check(seconds_bound());
  paths->paths(
      sub->add_option("--dump-dir", o->dump_dir, "--mpi: where a hang writes rank-K.json")
          ->capture_default_str(),
      [o](const std::string& option) {
        std::vector<paths::PathUse> uses;
        if (o->mpi) {
          uses.push_back({option, o->dump_dir, paths::Role::output_folder, rank_dump_names()});
        }
        return uses;
      });
  sub->add_flag("--check-collectives", o->check_collectives,
                "--mpi: fingerprint mode, every collective compared across its ranks before it "
                "is issued (also ORDO_DEBUG=detail)");
  return {[o] { return run_demo(*o); }, paths};
}

}  // namespace ordo::tools
