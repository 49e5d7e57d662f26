// `ordo step-dag`: write the step program a KVStore design gives for a built-in network, as a
// dump that `ordo validate` (and later `ordo verify`) reads.
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "runtime/dag/dump_writer.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/errors/input_error.hpp"
#include "runtime/networks/catalog.hpp"
#include "tools/ordo/commands.hpp"
#include "tools/ordo/design_options.hpp"
#include "tools/ordo/job_input.hpp"
#include "tools/ordo/output.hpp"

namespace ordo::tools {

namespace {

struct StepDagOptions {
  std::string network = "mlp";
  std::string design = "depcha";
  std::string init = "safe";
  std::uint32_t layers = 4;
  designs::DesignConfig config;
  designs::StepOptions step;
  std::string out_path;
  std::string model;
  std::string data_shape;
};

int run_step_dag(StepDagOptions o) {
  o.config.kind = designs::parse_design(o.design);
  o.config.init = designs::parse_init(o.init);
  JobInput input;
  input.design = o.design;
  input.network = o.model.empty() ? o.network : "";
  input.model = o.model;
  input.data_shape = o.data_shape;
  input.layers = o.layers;
  input.init = o.init;
  input.config = o.config;
  input.step = o.step;
  dag::Job job;
  try {
    job = input.load();
  } catch (const errors::InputError& e) {
    std::cerr << "ordo step-dag: error: " << e.what() << '\n';
    return exit_bad_input;
  } catch (const std::invalid_argument& e) {
    std::cerr << "ordo step-dag: error: " << e.what() << '\n';
    return exit_bad_input;
  }
  return write_output(o.out_path, dag::write_dump(job), "step-dag") ? exit_ok : exit_bad_input;
}

}  // namespace

Command add_step_dag(CLI::App& app) {
  auto o = std::make_shared<StepDagOptions>();
  auto paths = std::make_shared<PathOptions>();
  CLI::App* sub =
      app.add_subcommand("step-dag", "Write a design's training-step program as a dump");
  // A file unless it is a built-in's name; not read at all beside --model.
  paths->paths(sub->add_option("--network", o->network,
                               networks::builtin_network_names() + " or a network description file")
                   ->capture_default_str(),
               [o](const std::string& option) {
                 std::vector<paths::PathUse> uses;
                 if (o->model.empty() && !networks::builtin_network(o->network, o->layers)) {
                   uses.push_back({option, o->network, paths::Role::input_file, {}});
                 }
                 return uses;
               });
  paths->input_file(
      sub->add_option("--model", o->model,
                      "a model file (ONNX, or MXNet symbol JSON) instead of --network"),
      o->model);
  paths->not_a_path(sub->add_option("--data-shape", o->data_shape,
                                    "with --model: one example's shape, e.g. 3,224,224"));
  sub->add_option("--layers", o->layers, "layers of the mlp")->check(CLI::Range(1, 1024));
  add_design_options(sub, *paths, o->design, o->config, "");
  paths->not_a_path(sub->add_option("--init", o->init, "safe or fig4")->capture_default_str());
  sub->add_flag("--with-init", o->step.include_init, "broadcast the weights first");
  sub->add_option("--steps", o->step.steps, "training steps")->check(CLI::Range(1, 1024));
  sub->add_flag("--overlap", o->step.overlap,
                "no wait_for_all between the steps: a step's communication runs into the next "
                "one's forward");
  sub->add_flag("--prefetch", o->config.prefetch,
                "load each step's batch on a data pool (as ordo train)");
  paths->output_file(
      sub->add_option("-o,--output", o->out_path, "file to write (default: standard output)"),
      o->out_path);
  return {[o] { return run_step_dag(*o); }, paths};
}

}  // namespace ordo::tools
