#include "tools/ordo/job_input.hpp"

#include <optional>
#include <stdexcept>

#include "runtime/dag/dump_reader.hpp"
#include "runtime/errors/input_error.hpp"
#include "runtime/import/model_file.hpp"
#include "runtime/networks/catalog.hpp"
#include "runtime/networks/network_reader.hpp"
#include "tools/ordo/design_options.hpp"

namespace ordo::tools {

networks::Network pick_network(const std::string& name, std::uint32_t layers) {
  if (std::optional<networks::Network> net = networks::builtin_network(name, layers)) return *net;
  return networks::read_network_file(name);
}

void JobInput::add_options(CLI::App* sub, PathOptions& paths, const std::string& what) {
  paths.paths(sub->add_option("input", path, what + " (with --design: a network description)"),
              [this](const std::string& option) { return file_use(option, path); });
  add_design_options(sub, paths, design, config,
                     "check this design's step on a network instead of a dump: ");
  paths.paths(sub->add_option(
                  "--network", network,
                  "with --design: " + networks::builtin_network_names() + " or a description file"),
              [this](const std::string& option) { return file_use(option, network); });
  paths.input_file(
      sub->add_option("--model", model,
                      "with --design: a model file (ONNX, or MXNet symbol JSON) instead of a "
                      "network"),
      model);
  paths.not_a_path(sub->add_option(
      "--data-shape", data_shape,
      "with --model: one example's shape, e.g. 3,224,224 (MXNet symbols carry none)"));
  sub->add_option("--layers", layers, "layers of the built-in mlp")->check(CLI::Range(1, 1024));
  paths.not_a_path(
      sub->add_option("--init", init, "safe or fig4 (with --with-init)")->capture_default_str());
  sub->add_flag("--with-init", step.include_init, "broadcast the weights first");
  sub->add_option("--steps", step.steps, "training steps")->check(CLI::Range(1, 1024));
  sub->add_flag("--overlap", step.overlap,
                "no wait_for_all between the steps: a step's communication runs into the next "
                "one's forward");
  sub->add_flag("--prefetch", config.prefetch,
                "load each step's batch on a data pool (as ordo train)");
}

designs::DesignConfig JobInput::design_config() const {
  designs::DesignConfig c = config;
  c.kind = designs::parse_design(design);
  c.init = designs::parse_init(init);
  std::optional<std::uint32_t> fit;
  if (ranks != 0) {
    fit = ranks;
  } else if (designs::written_for_ranks(c.kind) && designs::design_ranks(c).value_or(0) == 0) {
    fit = default_ranks;  // no --ranks, and the design's knobs fix no count
  }
  return designs::fit_to_ranks(c, fit);
}

dag::Job JobInput::load() const {
  if (design.empty()) {
    if (path.empty()) throw std::invalid_argument("no input: give a DAG dump, or --design");
    if (!network.empty()) throw std::invalid_argument("--network needs --design");
    if (!model.empty()) throw std::invalid_argument("--model needs --design");
    // A dump brings its own pools and collectives: a design option would be ignored silently,
    // and `--no-order-guard` on a dump would seem to check a variant it does not.
    if (!(config == designs::DesignConfig{})) {
      throw std::invalid_argument(
          "--comm-threads, --ncomm, --outstanding, --bucket-size, --slice-size, --credit-size, "
          "--shards, --nodes, --node-ranks, --no-order-guard and --prefetch "
          "need --design; a dump brings its own program");
    }
    if (step.include_init || step.steps != 1 || step.overlap) {
      throw std::invalid_argument(
          "--with-init, --steps and --overlap need --design; a dump brings its own steps");
    }
    return dag::read_dump_file(path);
  }
  if (!path.empty() + !network.empty() + !model.empty() > 1) {
    throw std::invalid_argument(
        "give the network once: as the input, with --network or with --model");
  }
  if (!data_shape.empty() && model.empty()) {
    throw std::invalid_argument("--data-shape needs --model");
  }
  const designs::DesignConfig c = design_config();
  // The design's own knobs first, so that a bad one is not reported as the network's problem.
  designs::check_config(c);
  const std::string net = !model.empty()     ? model
                          : !network.empty() ? network
                                             : (!path.empty() ? path : "mlp");
  networks::Network picked;
  if (!model.empty()) {
    import::ModelOptions options;
    if (!data_shape.empty()) options.data_shape = import::parse_data_shape(data_shape);
    picked = import::import_model_file(model, options);
  } else {
    picked = pick_network(net, layers);
  }
  try {
    return designs::build_step_job(picked, c, step);
  } catch (const std::invalid_argument& e) {
    // What the builder refuses is the network's problem: say which network, as the reader does.
    throw errors::InputError(net, e.what(), "a network the step builder accepts");
  }
}

std::vector<paths::PathUse> JobInput::file_use(const std::string& option,
                                               const std::string& name) const {
  if (name.empty() || (!design.empty() && networks::builtin_network(name, layers))) return {};
  return {{option, name, paths::Role::input_file, {}}};
}

std::string JobInput::name() const {
  if (design.empty()) return path;
  const std::string net = !model.empty()     ? model
                          : !network.empty() ? network
                                             : (!path.empty() ? path : "mlp");
  designs::DesignConfig c = config;
  c.kind = designs::parse_design(design);
  try {
    c = design_config();
  } catch (const std::invalid_argument&) {
    // Named as given: load() says what is wrong with it.
  }
  return designs::describe(c) + " on " + net;
}

}  // namespace ordo::tools
