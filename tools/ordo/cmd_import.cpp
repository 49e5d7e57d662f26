// `ordo import MODEL`: a model file from another framework as ordo's network description
// (docs/import.md), for `ordo verify NET.json --design D`, `ordo step-dag --network NET.json`
// and review. Every tool also takes the model itself with --model.
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "runtime/errors/input_error.hpp"
#include "runtime/import/model_file.hpp"
#include "runtime/networks/network_reader.hpp"
#include "tools/ordo/commands.hpp"
#include "tools/ordo/output.hpp"

namespace ordo::tools {

namespace {

struct ImportCli {
  std::string model;
  std::string data_shape;
  std::string out_path;
};

int run_import(const ImportCli& o) {
  import::ImportedModel model;
  try {
    import::ModelOptions options;
    if (!o.data_shape.empty()) options.data_shape = import::parse_data_shape(o.data_shape);
    model = import::import_model(o.model, options);
  } catch (const errors::InputError& e) {
    std::cerr << "ordo import: error: " << e.what() << '\n';
    return exit_bad_input;
  } catch (const std::invalid_argument& e) {
    std::cerr << "ordo import: error: " << e.what() << '\n';
    return exit_bad_input;
  }
  const networks::Network& net = model.network;
  std::uint64_t tensors = 0;
  std::uint64_t elements = 0;
  for (const networks::Layer& layer : net.layers) {
    for (const networks::Param& p : layer.params) {
      ++tensors;
      elements += p.count;
    }
  }
  std::cerr << "ordo import: " << o.model << ": '" << net.name << "', " << net.layers.size()
            << " layers, " << tensors << " parameter tensors, " << elements << " parameters ("
            << networks::param_bytes(net) << " bytes)\n";
  // Whether `ordo train --model` can train it, and if not, the first node it cannot compute.
  if (model.trainable()) {
    std::cerr << "ordo import: trainable (ordo train --model); the file holds initial values of "
              << model.initial.params.size() << " of the " << tensors
              << " parameter tensors and of " << model.initial.running.size()
              << " batch norms' running statistics\n";
  } else {
    std::cerr << "ordo import: not trainable: " << model.untrainable_at << ": " << model.untrainable
              << '\n';
  }
  return write_output(o.out_path, networks::write_network(net), "import") ? exit_ok
                                                                          : exit_bad_input;
}

}  // namespace

Command add_import(CLI::App& app) {
  auto o = std::make_shared<ImportCli>();
  auto paths = std::make_shared<PathOptions>();
  CLI::App* sub = app.add_subcommand(
      "import", "Write a model file (ONNX, or MXNet symbol JSON) as an ordo network description");
  paths->input_file(sub->add_option("model", o->model, "the model file")->required(), o->model);
  paths->not_a_path(
      sub->add_option("--data-shape", o->data_shape,
                      "one example's shape, e.g. 3,224,224 (MXNet symbols carry none)"));
  paths->output_file(
      sub->add_option("-o,--output", o->out_path, "file to write (default: standard output)"),
      o->out_path);
  return {[o] { return run_import(*o); }, paths};
}

}  // namespace ordo::tools
