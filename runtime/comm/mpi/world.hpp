// One rank's view of an MPI job: the World interface over MPI_COMM_WORLD and the job's
// communicators, all created up front.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/mpi/communicator.hpp"
#include "runtime/comm/mpi/limits.hpp"
#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::comm {

struct MpiWorldOptions {
  // Most elements per MPI call, 1..INT_MAX. Smaller values exist to exercise chunking cheaply.
  std::uint64_t chunk_elements_max = limits::mpi_chunk_elements_max;
};

class MpiWorld final : public World {
 public:
  // Creates every communicator of `comms`, in table order, on the calling thread. Creation is
  // collective over MPI_COMM_WORLD: every rank must construct its MpiWorld with the same table at
  // the same point, and before any thread issues collectives, because communicator creation
  // racing with other collectives can deadlock (two ranks may enter the creations in different
  // orders, and MPI matches them by order).
  //   members absent:   MPI_Comm_dup(MPI_COMM_WORLD), communicator rank = world rank;
  //   members present:  MPI_Comm_split, communicator rank = position in `members`; ranks not
  //                     listed get no communicator (is_member is false).
  // Throws std::invalid_argument, before any MPI call, for more than dag::limits::comms_max
  // communicators or a member list that is empty, names a rank >= the world size, or names a rank
  // twice, so that every rank rejects a bad table identically. `runtime` must outlive the world.
  MpiWorld(const MpiRuntime& runtime, const std::vector<dag::Communicator>& comms,
           MpiWorldOptions options = {});
  ~MpiWorld() override;
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  dag::Rank rank() const override { return rank_; }
  std::uint32_t size() const override { return size_; }
  std::uint32_t comm_count() const override;
  MpiCommunicator& comm(dag::CommId id) override;
  bool is_member(dag::CommId id) const override;

 private:
  const MpiCommunicator* find(dag::CommId id) const;

  dag::Rank rank_;
  std::uint32_t size_;
  // One entry per communicator of the table; null where this rank is not a member.
  std::vector<std::unique_ptr<MpiCommunicator>> comms_;
  std::vector<std::string> names_;  // of every communicator, members or not, for messages
  // Declared after comms_, so destroyed first: in-flight requests end before any comm is freed.
  MpiProgress progress_;
};

}  // namespace ordo::comm
