#include "runtime/comm/mpi/collectives.hpp"

#include <cassert>

#include "runtime/comm/mpi/error.hpp"

namespace ordo::comm::mpi_call {

void allreduce(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op) {
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, buffer, count, datatype, op, comm), "MPI_Allreduce");
}

void bcast(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, int root) {
  check_mpi(MPI_Bcast(buffer, count, datatype, root, comm), "MPI_Bcast");
}

void barrier(MPI_Comm comm) { check_mpi(MPI_Barrier(comm), "MPI_Barrier"); }

MPI_Request iallreduce(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op) {
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, buffer, count, datatype, op, comm, &request),
            "MPI_Iallreduce");
  assert(request != MPI_REQUEST_NULL);
  return request;
}

MPI_Request ibcast(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, int root) {
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Ibcast(buffer, count, datatype, root, comm, &request), "MPI_Ibcast");
  assert(request != MPI_REQUEST_NULL);
  return request;
}

MPI_Request ibarrier(MPI_Comm comm) {
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Ibarrier(comm, &request), "MPI_Ibarrier");
  assert(request != MPI_REQUEST_NULL);
  return request;
}

}  // namespace ordo::comm::mpi_call
