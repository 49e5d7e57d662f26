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

void reduce(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op, int root,
            bool is_root) {
  check_mpi(is_root ? MPI_Reduce(MPI_IN_PLACE, buffer, count, datatype, op, root, comm)
                    : MPI_Reduce(buffer, nullptr, count, datatype, op, root, comm),
            "MPI_Reduce");
}

void reduce_scatter_block(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype,
                          MPI_Op op) {
  check_mpi(MPI_Reduce_scatter_block(MPI_IN_PLACE, buffer, block, datatype, op, comm),
            "MPI_Reduce_scatter_block");
}

void allgather(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype) {
  check_mpi(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, block, datatype, comm),
            "MPI_Allgather");
}

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

MPI_Request ireduce(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op,
                    int root, bool is_root) {
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(is_root ? MPI_Ireduce(MPI_IN_PLACE, buffer, count, datatype, op, root, comm, &request)
                    : MPI_Ireduce(buffer, nullptr, count, datatype, op, root, comm, &request),
            "MPI_Ireduce");
  assert(request != MPI_REQUEST_NULL);
  return request;
}

MPI_Request ireduce_scatter_block(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype,
                                  MPI_Op op) {
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Ireduce_scatter_block(MPI_IN_PLACE, buffer, block, datatype, op, comm, &request),
            "MPI_Ireduce_scatter_block");
  assert(request != MPI_REQUEST_NULL);
  return request;
}

MPI_Request iallgather(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype) {
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(
      MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, block, datatype, comm, &request),
      "MPI_Iallgather");
  assert(request != MPI_REQUEST_NULL);
  return request;
}

}  // namespace ordo::comm::mpi_call
