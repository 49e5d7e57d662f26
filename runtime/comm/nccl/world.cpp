#include "runtime/comm/nccl/world.hpp"

#include <mpi.h>

#include <cstring>
#include <string>

#include "runtime/comm/mpi/collectives.hpp"
#include "runtime/comm/mpi/error.hpp"
#include "runtime/comm/nccl/error.hpp"
#include "runtime/cuda/cuda_error.hpp"

namespace ordo::comm {
namespace {

// What rank 0 of a communicator broadcasts: the id, and whether it could make one, so that a
// failure there fails every member instead of leaving them in ncclCommInitRank.
struct IdMessage {
  ncclUniqueId id;
  int made;
};

ncclComm_t join(MpiCommunicator& members, dag::CommId id) {
  const std::string what =
      "NCCL communicator for communicator " + std::to_string(id) + " ('" + members.name() + "')";
  IdMessage message{};
  ncclResult_t made = ncclSuccess;
  if (members.rank() == 0) {
    made = ncclGetUniqueId(&message.id);
    message.made = made == ncclSuccess ? 1 : 0;
  }
  try {
    mpi_call::bcast(members.handle(), &message, static_cast<int>(sizeof message), MPI_BYTE, 0);
  } catch (const MpiError& error) {
    throw MpiError(error.function(), error.code(), what);
  }
  if (members.rank() == 0) check_nccl(made, "ncclGetUniqueId", what);
  if (message.made != 1) {
    throw NcclError("ncclGetUniqueId", ncclSystemError, what + " (on its rank 0)");
  }
  ncclComm_t comm = nullptr;
  check_nccl(ncclCommInitRank(&comm, static_cast<int>(members.size()), message.id,
                              static_cast<int>(members.rank())),
             "ncclCommInitRank", what);
  return comm;
}

}  // namespace

NcclWorld::NcclWorld(MpiWorld& mpi, int device) : mpi_(mpi), stream_(device), completions_(device) {
  // The stream's constructor made `device` current on this thread: NCCL takes it from there.
  comms_.resize(mpi_.comm_count());
  for (dag::CommId id = 0; id < comms_.size(); ++id) {
    if (!mpi_.is_member(id)) continue;
    MpiCommunicator& members = mpi_.comm(id);
    ncclComm_t comm = join(members, id);
    try {
      comms_[id] = std::make_unique<NcclCommunicator>(comm, members.name(), members.rank(),
                                                      members.size(), stream_, completions_);
    } catch (...) {
      (void)ncclCommDestroy(comm);
      throw;
    }
  }
}

NcclWorld::~NcclWorld() {
  // Whatever was started and never waited for still runs on the stream; NCCL's communicators must
  // not go while it does.
  try {
    stream_.synchronize();
  } catch (...) {
    // Nothing to recover: the communicators are destroyed below in any case.
  }
}

NcclCommunicator& NcclWorld::comm(dag::CommId id) {
  mpi_.comm(id);  // throws for an unknown id or a non-member, with MpiWorld's messages
  return *comms_[id];
}

}  // namespace ordo::comm
