// One rank's view of a job whose collectives run on NCCL: one NCCL communicator per
// communicator of the job's table, over the same members, created up front from an MpiWorld.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/comm/nccl/communicator.hpp"
#include "runtime/comm/nccl/completions.hpp"
#include "runtime/comm/nccl/launch_stream.hpp"

namespace ordo::comm {

class NcclWorld final : public World {
 public:
  // For each communicator of `mpi`'s table this rank is in, in table order: its rank 0 makes an
  // id (ncclGetUniqueId), MPI_Bcast hands it to the members over that communicator's MPI
  // communicator, and each member joins with ncclCommInitRank at its rank there. So the NCCL
  // communicator has the members of the MPI one, in the same rank order. Creation is collective:
  // every rank must construct its NcclWorld at the same point, before any thread issues
  // collectives, for the same reason as MpiWorld's communicators (docs/comm.md); table order is
  // one order for all, so no two ranks wait on each other's joins.
  // `device` is this rank's GPU; NCCL refuses two members of one communicator on one device.
  // Throws NcclError (the same on every member if rank 0 cannot make an id), CudaError, MpiError.
  // `mpi` must outlive this world.
  NcclWorld(MpiWorld& mpi, int device);
  ~NcclWorld() override;
  NcclWorld(const NcclWorld&) = delete;
  NcclWorld& operator=(const NcclWorld&) = delete;

  dag::Rank rank() const override { return mpi_.rank(); }
  std::uint32_t size() const override { return mpi_.size(); }
  std::uint32_t comm_count() const override { return mpi_.comm_count(); }
  // Throws as MpiWorld::comm does for an unknown id or a communicator this rank is not in.
  NcclCommunicator& comm(dag::CommId id) override;
  bool is_member(dag::CommId id) const override { return mpi_.is_member(id); }

  int device() const { return stream_.device(); }
  // The stream every launch of this rank goes on (benchmarks time raw NCCL on it).
  NcclLaunchStream& stream() { return stream_; }

 private:
  MpiWorld& mpi_;
  NcclLaunchStream stream_;
  // By id, null where this rank is not a member.
  std::vector<std::unique_ptr<NcclCommunicator>> comms_;
  // Declared last, so destroyed first: every callback has run before a communicator goes.
  NcclCompletions completions_;
};

}  // namespace ordo::comm
