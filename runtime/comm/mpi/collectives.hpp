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
// `is_root`: the root passes MPI_IN_PLACE and receives into `buffer`; every other rank sends
// `buffer` and receives nothing (MPI-3.1 section 5.9.1: the receive buffer matters at the root
// only), so its buffer is left as it was.
void reduce(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op, int root,
            bool is_root);
// In place, `buffer` holds every member's block of `block` elements; MPI_IN_PLACE puts this
// rank's reduced block at the front of `buffer` (MPI-3.1 section 5.10.1).
void reduce_scatter_block(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype, MPI_Op op);
// In place, this rank's block is already at its own offset in `buffer` and MPI fills the others
// (MPI-3.1 section 5.7).
void allgather(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype);

// `buffer` holds the communicator's blocks of `block` elements. At the root, MPI_IN_PLACE: its own
// block is already in place and the others arrive; elsewhere this rank sends its own block
// (`rank`'s) and receives nothing (MPI-3.1 section 5.5).
void gather(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype, int root, int rank);
// The root sends every block and keeps its own in place (MPI_IN_PLACE); elsewhere this rank
// receives its block at its own offset (MPI-3.1 section 5.6).
void scatter(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype, int root, int rank);
// Block j of `send` goes to rank j; block i of `buffer` receives rank i's block for this rank
// (MPI-3.1 section 5.8). The caller copies the buffer into `send` first, so that the call is in
// place as ordo's calls are.
void alltoall(MPI_Comm comm, const void* send, void* buffer, int block, MPI_Datatype datatype);
// In place (MPI_IN_PLACE, MPI-3.1 sections 5.11.1 and 5.11.2): the inclusive prefix of ranks 0 to
// this one, and the exclusive one (rank 0's buffer is then undefined).
void scan(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op);
void exscan(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op);

MPI_Request iallreduce(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op);
MPI_Request ibcast(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, int root);
MPI_Request ibarrier(MPI_Comm comm);
MPI_Request ireduce(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op,
                    int root, bool is_root);
MPI_Request ireduce_scatter_block(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype,
                                  MPI_Op op);
MPI_Request iallgather(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype);
MPI_Request igather(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype, int root,
                    int rank);
MPI_Request iscatter(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype, int root,
                     int rank);
MPI_Request ialltoall(MPI_Comm comm, const void* send, void* buffer, int block,
                      MPI_Datatype datatype);
MPI_Request iscan(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op);
MPI_Request iexscan(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op);

}  // namespace ordo::comm::mpi_call
