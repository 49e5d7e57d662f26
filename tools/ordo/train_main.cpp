// `ordo-train`: the trainer's executable, which `ordo train` execs (front_end.hpp says why it is
// apart). Run directly it takes the same arguments: `ordo-train train --network lenet ...`.
#include "tools/ordo/commands.hpp"
#include "tools/ordo/front_end.hpp"

int main(int argc, char** argv) {
  return ordo::tools::run_front_end(argc, argv, {{"train", ordo::tools::add_train}}, nullptr);
}
