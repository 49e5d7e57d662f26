#include "runtime/comm/mpi/collectives.hpp"

#include <cassert>
#include <cstddef>

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

namespace {

// This rank's block of `buffer`.
void* own_block(void* buffer, int block, MPI_Datatype datatype, int rank) {
  int size = 0;
  check_mpi(MPI_Type_size(datatype, &size), "MPI_Type_size");
  return static_cast<std::byte*>(buffer) +
         static_cast<std::ptrdiff_t>(rank) * block * static_cast<std::ptrdiff_t>(size);
}

MPI_Request started(int code, MPI_Request request, const char* function) {
  check_mpi(code, function);
  assert(request != MPI_REQUEST_NULL);
  return request;
}

}  // namespace

void gather(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype, int root, int rank) {
  check_mpi(rank == root ? MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, block, datatype,
                                      root, comm)
                         : MPI_Gather(own_block(buffer, block, datatype, rank), block, datatype,
                                      nullptr, 0, MPI_DATATYPE_NULL, root, comm),
            "MPI_Gather");
}

void scatter(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype, int root, int rank) {
  check_mpi(
      rank == root
          ? MPI_Scatter(buffer, block, datatype, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, comm)
          : MPI_Scatter(nullptr, 0, MPI_DATATYPE_NULL, own_block(buffer, block, datatype, rank),
                        block, datatype, root, comm),
      "MPI_Scatter");
}

void alltoall(MPI_Comm comm, const void* send, void* buffer, int block, MPI_Datatype datatype) {
  check_mpi(MPI_Alltoall(send, block, datatype, buffer, block, datatype, comm), "MPI_Alltoall");
}

void scan(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op) {
  check_mpi(MPI_Scan(MPI_IN_PLACE, buffer, count, datatype, op, comm), "MPI_Scan");
}

void exscan(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op) {
  check_mpi(MPI_Exscan(MPI_IN_PLACE, buffer, count, datatype, op, comm), "MPI_Exscan");
}

MPI_Request igather(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype, int root,
                    int rank) {
  MPI_Request request = MPI_REQUEST_NULL;
  const int code = rank == root
                       ? MPI_Igather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, block, datatype,
                                     root, comm, &request)
                       : MPI_Igather(own_block(buffer, block, datatype, rank), block, datatype,
                                     nullptr, 0, MPI_DATATYPE_NULL, root, comm, &request);
  return started(code, request, "MPI_Igather");
}

MPI_Request iscatter(MPI_Comm comm, void* buffer, int block, MPI_Datatype datatype, int root,
                     int rank) {
  MPI_Request request = MPI_REQUEST_NULL;
  const int code = rank == root ? MPI_Iscatter(buffer, block, datatype, MPI_IN_PLACE, 0,
                                               MPI_DATATYPE_NULL, root, comm, &request)
                                : MPI_Iscatter(nullptr, 0, MPI_DATATYPE_NULL,
                                               own_block(buffer, block, datatype, rank), block,
                                               datatype, root, comm, &request);
  return started(code, request, "MPI_Iscatter");
}

MPI_Request ialltoall(MPI_Comm comm, const void* send, void* buffer, int block,
                      MPI_Datatype datatype) {
  MPI_Request request = MPI_REQUEST_NULL;
  const int code = MPI_Ialltoall(send, block, datatype, buffer, block, datatype, comm, &request);
  return started(code, request, "MPI_Ialltoall");
}

MPI_Request iscan(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op) {
  MPI_Request request = MPI_REQUEST_NULL;
  const int code = MPI_Iscan(MPI_IN_PLACE, buffer, count, datatype, op, comm, &request);
  return started(code, request, "MPI_Iscan");
}

MPI_Request iexscan(MPI_Comm comm, void* buffer, int count, MPI_Datatype datatype, MPI_Op op) {
  MPI_Request request = MPI_REQUEST_NULL;
  const int code = MPI_Iexscan(MPI_IN_PLACE, buffer, count, datatype, op, comm, &request);
  return started(code, request, "MPI_Iexscan");
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
