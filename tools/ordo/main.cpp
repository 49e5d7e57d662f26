// `ordo`: the command-line front end. With no subcommand it runs the embedded demo, so a newcomer
// sees the runtime work with no arguments at all. `train` runs in `ordo-train` (front_end.hpp).
#include <cstring>

#include "checker/verify/verify.hpp"
#include "runtime/diag/analysis.hpp"
#include "tools/ordo/commands.hpp"
#include "tools/ordo/front_end.hpp"
#include "tools/ordo/trainer_exec.hpp"

int main(int argc, char** argv) {
  using namespace ordo::tools;
  if (argc >= 2 && std::strcmp(argv[1], "train") == 0) return exec_trainer(argv);
  // Listed here so that `ordo --help` shows it; its options are the trainer's.
  const CommandAdder train = [argv](CLI::App& app) -> Command {
    app.add_subcommand("train", train_summary)->allow_extras()->prefix_command();
    return [argv] { return exec_trainer(argv); };
  };
  return run_front_end(argc, argv,
                       {{"demo", add_demo},
                        {"validate", add_validate},
                        {"step-dag", add_step_dag},
                        {"export-promela", add_export_promela},
                        {"verify", add_verify, ordo::checker::json_error_report},
                        {"replay", add_replay},
                        {"fuzz", add_fuzz},
                        {"gen-imagenet", add_gen_imagenet},
                        {"pack-rec", add_pack_rec},
                        {"analyze", add_analyze, ordo::diag::json_error_report},
                        {"import", add_import},
                        {"simulate", add_simulate},
                        {"train", train}},
                       "demo");
}
