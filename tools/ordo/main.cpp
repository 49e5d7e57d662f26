// `ordo`: the command-line front end. With no subcommand it runs the embedded demo, so a newcomer
// sees the runtime work with no arguments at all.
#include <exception>
#include <iostream>
#include <map>
#include <new>
#include <string>

#include "tools/ordo/command_clock.hpp"
#include "tools/ordo/commands.hpp"
#include "tools/ordo/output.hpp"

namespace {

// A command's exit code once its standard output is known to have been written: an answer lost
// on a full disk is no answer.
int finish(int code, const std::string& command) {
  return ordo::tools::flush_standard_output(command) ? code : ordo::tools::exit_bad_input;
}

}  // namespace

int main(int argc, char** argv) {
  ordo::tools::command_clock();  // --timeout counts from here
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
  add(ordo::tools::add_import, "import");
#ifdef ORDO_HAVE_TORCH
  add(ordo::tools::add_train, "train");
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? ordo::tools::exit_ok : ordo::tools::exit_bad_input;
  }

  std::string name = "demo";
  try {
    for (const auto& [sub, command] : commands) {
      if (sub->parsed()) {
        name = sub->get_name();
        return finish(command(), name);
      }
    }
    return finish(commands.at(app.get_subcommand("demo"))(), name);
  } catch (const std::bad_alloc&) {
    // Not the input's fault, so not exit 2: a bound of the machine was hit.
    std::cerr << "ordo " << name
              << ": unknown: out of memory (std::bad_alloc); `ordo verify --memory-max` bounds "
                 "what the checker may take and answers unknown before this happens\n";
    return ordo::tools::exit_unknown;
  } catch (const std::exception& e) {
    std::cerr << "ordo " << name << ": error: " << e.what() << '\n';
    return finish(ordo::tools::exit_bad_input, name);
  }
}
