// The subcommands of each executable (front_end.hpp says why there are two), as the executables
// run them and as the test of their paths walks them (tests/tools/command_paths_test.cpp).
#pragma once

#include <vector>

#include "tools/ordo/front_end.hpp"

namespace ordo::tools {

// `ordo`: every command; `train` execs the trainer with `argv` (trainer_exec.hpp).
std::vector<CommandEntry> ordo_commands(char** argv);

// `ordo-train`: `train` alone. Defined only where the trainer is built (libtorch).
std::vector<CommandEntry> trainer_commands();

}  // namespace ordo::tools
