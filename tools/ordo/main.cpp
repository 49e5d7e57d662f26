// `ordo`: the command-line front end. With no subcommand it runs the embedded demo, so a newcomer
// sees the runtime work with no arguments at all.
#include <exception>
#include <iostream>
#include <map>
#include <string>

#include "tools/ordo/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"ordo: MPI collectives in dependency-engine DAGs, provably safe"};
  app.require_subcommand(0, 1);
  std::map<const CLI::App*, ordo::tools::Command> commands;
  auto add = [&](auto adder, const char* name) {
    ordo::tools::Command command = adder(app);
    commands.emplace(app.get_subcommand(name), std::move(command));
  };
  add(ordo::tools::add_demo, "demo");
  add(ordo::tools::add_validate, "validate");
  add(ordo::tools::add_step_dag, "step-dag");
  add(ordo::tools::add_export_promela, "export-promela");
  add(ordo::tools::add_verify, "verify");
  add(ordo::tools::add_replay, "replay");
  add(ordo::tools::add_gen_imagenet, "gen-imagenet");
  add(ordo::tools::add_pack_rec, "pack-rec");
  add(ordo::tools::add_analyze, "analyze");
#ifdef ORDO_HAVE_TORCH
  add(ordo::tools::add_train, "train");
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? ordo::tools::exit_ok : ordo::tools::exit_bad_input;
  }

  try {
    for (const auto& [sub, command] : commands) {
      if (sub->parsed()) return command();
    }
    return commands.at(app.get_subcommand("demo"))();
  } catch (const std::exception& e) {
    std::cerr << "ordo: error: " << e.what() << '\n';
    return ordo::tools::exit_bad_input;
  }
}
