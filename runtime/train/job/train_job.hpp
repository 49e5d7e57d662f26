// `ordo train` on one rank of an Open MPI world (docs/train.md, "`ordo train`"): the worlds it is
// watched on, the step program's verdict before any rank trains, the data, the training and what
// rank 0 reports. The command line only fills the options; a test may run the job itself.
//
// What keeps a job of many processes from hanging, since a rank that stops while the others wait
// in a collective leaves them there for ever (and mpirun with them):
// - every collective of the job is watched (diag/watchdog.hpp: --hang-timeout): the MPI set-up by
//   a deadline, since no recorder sees it yet, and from the first agreement to the last every call
//   by the watchdog, the ranks' wait for rank 0's verdict with --verify-timeout on top;
// - what every rank meets alike (an unknown network, a verdict of unsafe, a checkpoint that does
//   not fit) the ranks agree on, and every rank returns the same exit code;
// - what one rank meets alone (a file it cannot write, a record it cannot decode) ends the whole
//   job: the rank says why, leaves its state beside the dumps and calls MpiRuntime::abort, rather
//   than finalising alone while the others wait for it.
#pragma once

#include <iosfwd>

#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/train/job/job_options.hpp"

namespace ordo::train {

// The process's job: refuses a device this process cannot use before MPI starts (every rank
// alike), sets the tensor-math threads, starts MPI and runs train_job, reporting to standard
// output. Returns the exit code.
int run_train_process(const JobOptions& o);

// This rank's job in the world `runtime` started; rank 0 reports to `out`, every rank's errors go
// to standard error (each message one line in one write). Returns the exit code
// (runtime/errors/exit_codes.hpp; 1 also when the target accuracy is not reached), the same on
// every rank. A failure of this rank alone does not return in a world of more than one rank: it
// ends the job with exit code 2 (MpiRuntime::abort), after saying why.
int train_job(comm::MpiRuntime& runtime, const JobOptions& o, std::ostream& out);

}  // namespace ordo::train
