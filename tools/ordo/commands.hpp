// The subcommands of the `ordo` front end. Each registers its options on the app and returns the
// function that runs it; all real work happens in the libraries.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace ordo::tools {

// A subcommand's body; returns the process exit code.
using Command = std::function<int()>;

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

// Exit codes shared by every subcommand (their meaning per subcommand: docs/checker.md).
inline constexpr int exit_ok = 0;
// verify: a property fails; replay: the run did not end as the trace says.
inline constexpr int exit_unsafe = 1;
inline constexpr int exit_bad_input = 2;
// verify: a bound was hit before an answer.
inline constexpr int exit_unknown = 3;
// fuzz: the checker and the runtime contradict each other (a bug in ordo, or in the job's model).
inline constexpr int exit_disagreement = 4;

}  // namespace ordo::tools
