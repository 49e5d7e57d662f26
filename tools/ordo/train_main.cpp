// `ordo-train`: the trainer's executable, which `ordo train` execs (front_end.hpp says why it is
// apart). Run directly it takes the same arguments: `ordo-train train --network lenet ...`.
#include "tools/ordo/command_tables.hpp"

int main(int argc, char** argv) {
  return ordo::tools::run_front_end(argc, argv, ordo::tools::trainer_commands(), nullptr);
}
