#include "runtime/comm/mpi/messages.hpp"

#include "runtime/comm/mpi/error.hpp"

namespace ordo::comm::mpi_call {

void send(MPI_Comm comm, const void* buffer, int count, MPI_Datatype datatype, int dest, int tag) {
  check_mpi(MPI_Send(buffer, count, datatype, dest, tag, comm), "MPI_Send");
}

void recv(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, int source, int tag) {
  check_mpi(MPI_Recv(buffer, count, datatype, source, tag, comm, MPI_STATUS_IGNORE), "MPI_Recv");
}

MPI_Request isend(MPI_Comm comm, const void* buffer, int count, MPI_Datatype datatype, int dest,
                  int tag) {
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Isend(buffer, count, datatype, dest, tag, comm, &request), "MPI_Isend");
  return request;
}

MPI_Request irecv(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, int source,
                  int tag) {
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Irecv(buffer, count, datatype, source, tag, comm, &request), "MPI_Irecv");
  return request;
}

}  // namespace ordo::comm::mpi_call
