// `ordo`: the command-line front end. With no subcommand it runs the embedded demo, so a newcomer
// sees the runtime work with no arguments at all. `train` runs in `ordo-train` (front_end.hpp).
#include <cstring>

#include "tools/ordo/command_tables.hpp"
#include "tools/ordo/trainer_exec.hpp"

int main(int argc, char** argv) {
  using namespace ordo::tools;
  if (argc >= 2 && std::strcmp(argv[1], "train") == 0) return exec_trainer(argv);
  return run_front_end(argc, argv, ordo_commands(argv), "demo");
}
