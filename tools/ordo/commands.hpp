// The subcommands of the `ordo` front end. Each registers its options on the app and returns the
// function that runs it; all real work happens in the libraries.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace ordo::tools {

// A subcommand's body; returns the process exit code.
using Command = std::function<int()>;

Command add_demo(CLI::App& app);
Command add_validate(CLI::App& app);
Command add_step_dag(CLI::App& app);

// Exit codes shared by every subcommand (docs/cli.md).
inline constexpr int exit_ok = 0;
inline constexpr int exit_bad_input = 2;

}  // namespace ordo::tools
