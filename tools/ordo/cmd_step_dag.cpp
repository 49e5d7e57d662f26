// `ordo step-dag`: write the step program a KVStore design gives for a built-in network, as a
// dump that `ordo validate` (and later `ordo verify`) reads.
#include <iostream>
#include <memory>
#include <string>

#include "runtime/dag/dump_writer.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/networks/catalog.hpp"
#include "tools/ordo/commands.hpp"
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
};

int run_step_dag(StepDagOptions o) {
  o.config.kind = designs::parse_design(o.design);
  o.config.init = designs::parse_init(o.init);
  const std::string text =
      dag::write_dump(designs::build_step_job(pick_network(o.network, o.layers), o.config, o.step));
  return write_output(o.out_path, text, "step-dag") ? exit_ok : exit_bad_input;
}

}  // namespace

Command add_step_dag(CLI::App& app) {
  auto o = std::make_shared<StepDagOptions>();
  CLI::App* sub =
      app.add_subcommand("step-dag", "Write a design's training-step program as a dump");
  sub->add_option("--network", o->network,
                  networks::builtin_network_names() + " or a network description file")
      ->capture_default_str();
  sub->add_option("--layers", o->layers, "layers of the mlp")->check(CLI::Range(1, 1024));
  sub->add_option("--design", o->design, "naive, funnel, concom or depcha")->capture_default_str();
  sub->add_option("--init", o->init, "safe or fig4")->capture_default_str();
  sub->add_flag("--with-init", o->step.include_init, "broadcast the weights first");
  sub->add_option("--steps", o->step.steps, "training steps")->check(CLI::Range(1, 1024));
  sub->add_option("--comm-threads", o->config.comm_threads, "threads of the comm pool");
  sub->add_option("--ncomm", o->config.ncomm, "concom: communicators");
  sub->add_option("--outstanding", o->config.outstanding, "concom: keys between barriers");
  sub->add_flag("--prefetch", o->config.prefetch,
                "load each step's batch on a data pool (as ordo train)");
  sub->add_option("-o,--output", o->out_path, "file to write (default: standard output)");
  return [o] { return run_step_dag(*o); };
}

}  // namespace ordo::tools
