#include "tools/ordo/command_tables.hpp"

#include "checker/verify/verify.hpp"
#include "runtime/diag/analysis.hpp"
#include "tools/ordo/commands.hpp"
#include "tools/ordo/trainer_exec.hpp"

namespace ordo::tools {

std::vector<CommandEntry> ordo_commands(char** argv) {
  // Listed here so that `ordo --help` shows it; its options, and their paths, are the trainer's.
  const CommandAdder train = [argv](CLI::App& app) -> Command {
    app.add_subcommand("train", train_summary)->allow_extras()->prefix_command();
    return {[argv] { return exec_trainer(argv); }, nullptr};
  };
  return {{"demo", add_demo},
          {"validate", add_validate},
          {"step-dag", add_step_dag},
          {"export-promela", add_export_promela},
          {"verify", add_verify, checker::json_error_report},
          {"replay", add_replay},
          {"fuzz", add_fuzz},
          {"gen-imagenet", add_gen_imagenet},
          {"pack-rec", add_pack_rec},
          {"analyze", add_analyze, diag::json_error_report},
          {"import", add_import},
          {"simulate", add_simulate},
          {"train", train}};
}

}  // namespace ordo::tools
