// What both executables of the command line share: a subcommand table, parsing, and the mapping
// of errors to exit codes. `ordo` (main.cpp) holds every command but `train`; `ordo-train`
// (train_main.cpp) holds `train` alone, so that only training loads libtorch, whose start-up
// (half a second of relocations and operator registration) every other command would pay.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tools/ordo/cli11.hpp"
#include "tools/ordo/commands.hpp"

namespace ordo::tools {

// Registers a subcommand on the app and returns its body.
using CommandAdder = std::function<Command(CLI::App&)>;

struct CommandEntry {
  const char* name;
  CommandAdder add;
  // For a command with `--json` (or `--format json`): the object it prints for bad input, which
  // options that do not parse get too.
  std::string (*json_error)(const std::string& message) = nullptr;
};

// Parses argv against the commands and runs the one named (`fallback` when none is and it is
// given). Returns the process exit code.
int run_front_end(int argc, char** argv, const std::vector<CommandEntry>& commands,
                  const char* fallback);

// The one-line summary of `ordo train`, shown by both executables' help.
inline constexpr const char* train_summary =
    "Train a built-in network or a model file (--model) across the MPI ranks, verified first";

}  // namespace ordo::tools
