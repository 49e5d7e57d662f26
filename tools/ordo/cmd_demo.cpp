// `ordo demo` (also what `ordo` with no arguments runs): the embedded default job.
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "runtime/dag/dump_writer.hpp"
#include "runtime/demo/engine_demo.hpp"
#include "tools/ordo/commands.hpp"

namespace ordo::tools {

namespace {

struct DemoCliOptions {
  demo::DemoOptions demo;
  std::string dump_path;
};

int run_demo(const DemoCliOptions& options) {
  const demo::DemoReport report = demo::run_engine_demo(options.demo);
  demo::print_report(std::cout, report);
  if (!options.dump_path.empty()) {
    std::ofstream out(options.dump_path);
    out << dag::write_dump(report.recorded);
    if (!out) {
      std::cerr << "ordo demo: cannot write " << options.dump_path << '\n';
      return exit_bad_input;
    }
    std::cout << "recorded program written to " << options.dump_path << '\n';
  }
  return demo::demo_succeeded(report) ? exit_ok : 1;
}

}  // namespace

Command add_demo(CLI::App& app) {
  auto options = std::make_shared<DemoCliOptions>();
  CLI::App* sub = app.add_subcommand("demo", "Train a small MLP on the engine (the default)");
  sub->add_option("--layers", options->demo.shape.layers, "layers")->check(CLI::Range(1, 64));
  sub->add_option("--width", options->demo.shape.width, "units per layer")
      ->check(CLI::Range(1, 4096));
  sub->add_option("--batch", options->demo.shape.batch, "samples per step")
      ->check(CLI::Range(1, 4096));
  sub->add_option("--steps", options->demo.steps, "SGD steps")->check(CLI::Range(1, 10000));
  sub->add_option("--threads", options->demo.compute_threads, "compute pool threads")
      ->check(CLI::Range(1, 256));
  sub->add_option("--seed", options->demo.seed, "seed for weights and data");
  sub->add_option("--dump", options->dump_path, "write the recorded program to this file");
  return [options] { return run_demo(*options); };
}

}  // namespace ordo::tools
