// The MPI calls of the backend, one MPI call each, with int counts and MPI handles. They do no
// argument checks of their own (MPI checks, and its error code becomes an MpiError), which makes
// them the place to reach MPI directly, e.g. to test MPI's error path.
#pragma once

#include <mpi.h>

namespace ordo::comm::mpi_call {

// In place (MPI_IN_PLACE): the buffer holds this rank's contribution and receives the result,
// which saves a second buffer the size of the gradient and a copy.
void allreduce(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op);
void bcast(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, int root);
void barrier(MPI_Comm comm);

MPI_Request iallreduce(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op);
MPI_Request ibcast(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, int root);
MPI_Request ibarrier(MPI_Comm comm);

}  // namespace ordo::comm::mpi_call
