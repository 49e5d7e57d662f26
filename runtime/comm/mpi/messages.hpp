// The MPI calls of point to point (docs/semantics.md, §3b), one MPI call each, as collectives.hpp
// has the collectives': standard-mode sends (MPI-3.1 §3.4) and receives, from `source` or from
// MPI_ANY_SOURCE. A receive's status is not kept: a longer buffer than the message is legal
// (§3.2.4), a shorter one fails in MPI with MPI_ERR_TRUNCATE, which becomes an MpiError.
#pragma once

#include <mpi.h>

namespace ordo::comm::mpi_call {

void send(MPI_Comm comm, const void* buffer, int count, MPI_Datatype datatype, int dest, int tag);
void recv(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, int source, int tag);
MPI_Request isend(MPI_Comm comm, const void* buffer, int count, MPI_Datatype datatype, int dest,
                  int tag);
MPI_Request irecv(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, int source,
                  int tag);

}  // namespace ordo::comm::mpi_call
