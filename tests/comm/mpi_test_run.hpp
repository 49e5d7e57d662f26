// What every MPI test program's main does: one process per rank under mpirun, every rank running
// the same tests in the same order (their collectives must match). Ranks other than 0 print only
// their failures, tagged with the rank. A failure on any rank fails every rank's exit status, so
// mpirun and ctest report it whichever rank saw it; a rank stuck in a collective its peers
// abandoned is ended by the ctest TIMEOUT.
#pragma once

#include <cstdint>
#include <functional>

#include "runtime/comm/mpi/runtime.hpp"

namespace ordo::comm::test {

struct MpiTestRun {
  const char* what = "the MPI tests";  // "... failed on at least one rank"
  std::uint32_t ranks_min = 1;
  std::uint32_t ranks_max = UINT32_MAX;
  // Runs on every rank before the world is made and the tests run (a device made current).
  std::function<void(const MpiRuntime&)> before;
};

// Starts MPI, runs the tests on a world of one communicator over every rank (mpi_env.hpp) and
// returns the exit status every rank agrees on.
int run_mpi_tests(int argc, char** argv, const MpiTestRun& run);

}  // namespace ordo::comm::test
