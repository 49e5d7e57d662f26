// What every MPI test shares: the process's MpiRuntime, a world whose communicator 0 spans all
// ranks, and point-to-point tokens for tests that must hold one rank back while another acts.
#pragma once

#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::comm::test {

// Set by the test program's main before any test runs, cleared after the last.
void install(const MpiRuntime* runtime, MpiWorld* world);

const MpiRuntime& runtime();
MpiWorld& world();
MpiCommunicator& world_comm();  // world().comm(0), every rank in world-rank order

// Blocking point-to-point on MPI_COMM_WORLD, which ordo's collectives never use (they run on
// duplicates), so a token cannot be matched by, or delay, a collective under test.
void send_token(dag::Rank to);
void receive_token(dag::Rank from);

}  // namespace ordo::comm::test
