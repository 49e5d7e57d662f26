// `ordo train` runs in its own executable, `ordo-train`, built beside `ordo` where libtorch is
// (front_end.hpp says why). `ordo` replaces itself with it, arguments and all, before anything
// else happens: the process (and, under mpirun, the rank) stays the same, so MPI starts there.
#pragma once

namespace ordo::tools {

// Execs the trainer with argv; returns only when it cannot (no trainer in this build, or exec
// failed), after saying why, with the exit code to return.
int exec_trainer(char** argv);

}  // namespace ordo::tools
