// The subcommands of the `ordo` front end. Each registers its options on the app and returns the
// function that runs it with the paths its options name; all real work happens in the libraries.
#pragma once

#include <functional>
#include <memory>

#include "runtime/errors/exit_codes.hpp"
#include "tools/ordo/cli11.hpp"
#include "tools/ordo/path_options.hpp"

namespace ordo::tools {

struct Command {
  std::function<int()> run;  // the body; returns the process exit code
  // What its options name, checked by the front end before the body runs (path_options.hpp).
  std::shared_ptr<const PathOptions> paths;
};

Command add_demo(CLI::App& app);
Command add_validate(CLI::App& app);
Command add_step_dag(CLI::App& app);
Command add_export_promela(CLI::App& app);
Command add_verify(CLI::App& app);
Command add_replay(CLI::App& app);
Command add_gen_imagenet(CLI::App& app);
Command add_pack_rec(CLI::App& app);
Command add_analyze(CLI::App& app);
Command add_import(CLI::App& app);
Command add_simulate(CLI::App& app);
Command add_fuzz(CLI::App& app);
#ifdef ORDO_HAVE_TORCH
Command add_train(CLI::App& app);  // only where the trainer is built (libtorch)
#endif

// Exit codes shared by every subcommand: the one table of runtime/errors/exit_codes.hpp.
inline constexpr int exit_ok = exit_codes::ok;
inline constexpr int exit_unsafe = exit_codes::unsafe;
inline constexpr int exit_bad_input = exit_codes::bad_input;
inline constexpr int exit_unknown = exit_codes::unknown;
inline constexpr int exit_disagreement = exit_codes::disagreement;

}  // namespace ordo::tools
