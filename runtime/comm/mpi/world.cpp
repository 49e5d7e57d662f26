#include "runtime/comm/mpi/world.hpp"

#include <mpi.h>

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <string>

#include "runtime/comm/mpi/chunks.hpp"
#include "runtime/comm/mpi/error.hpp"
#include "runtime/dag/limits.hpp"

namespace ordo::comm {
namespace {

std::string label(const dag::Communicator& comm, std::size_t id) {
  return "communicator " + std::to_string(id) + " ('" + comm.name + "')";
}

void check_members(const dag::Communicator& comm, std::size_t id, std::uint32_t world_size) {
  if (!comm.members) return;
  const std::vector<dag::Rank>& members = *comm.members;
  if (members.empty()) throw std::invalid_argument(label(comm, id) + " has no members");
  std::vector<bool> seen(world_size, false);
  for (const dag::Rank member : members) {
    if (member >= world_size) {
      throw std::invalid_argument(label(comm, id) + " names rank " + std::to_string(member) +
                                  " but the world has " + std::to_string(world_size) + " ranks");
    }
    if (seen[member]) {
      throw std::invalid_argument(label(comm, id) + " names rank " + std::to_string(member) +
                                  " twice");
    }
    seen[member] = true;
  }
}

// MPI gives communicators names for its own diagnostics and tools; longer names are cut.
void set_mpi_name(MPI_Comm comm, const std::string& name) {
  const std::string cut = name.substr(0, MPI_MAX_OBJECT_NAME - 1);
  check_mpi(MPI_Comm_set_name(comm, cut.c_str()), "MPI_Comm_set_name");
}

// Collective over MPI_COMM_WORLD. Returns MPI_COMM_NULL where `rank` is not a member.
MPI_Comm create(const dag::Communicator& comm, dag::Rank rank) {
  MPI_Comm created = MPI_COMM_NULL;
  if (!comm.members) {
    check_mpi(MPI_Comm_dup(MPI_COMM_WORLD, &created), "MPI_Comm_dup");
    return created;
  }
  const std::vector<dag::Rank>& members = *comm.members;
  const auto position = std::find(members.begin(), members.end(), rank);
  const bool member = position != members.end();
  const int color = member ? 0 : MPI_UNDEFINED;
  const int key = member ? static_cast<int>(position - members.begin()) : 0;
  check_mpi(MPI_Comm_split(MPI_COMM_WORLD, color, key, &created), "MPI_Comm_split");
  assert(member == (created != MPI_COMM_NULL));
  return created;
}

}  // namespace

MpiWorld::MpiWorld(const MpiRuntime& runtime, const std::vector<dag::Communicator>& comms,
                   MpiWorldOptions options)
    : rank_(runtime.world_rank()), size_(runtime.world_size()) {
  if (comms.size() > dag::limits::comms_max) {
    throw std::invalid_argument("the job has " + std::to_string(comms.size()) +
                                " communicators; at most " +
                                std::to_string(dag::limits::comms_max) + " are allowed");
  }
  chunk_count(0, options.chunk_elements_max);  // throws for a chunk size outside 1..INT_MAX
  for (std::size_t id = 0; id < comms.size(); ++id) check_members(comms[id], id, size_);
  comms_.reserve(comms.size());
  names_.reserve(comms.size());
  for (std::size_t id = 0; id < comms.size(); ++id) {
    names_.push_back(comms[id].name);
    MPI_Comm created = create(comms[id], rank_);
    if (created == MPI_COMM_NULL) {
      comms_.push_back(nullptr);
      continue;
    }
    std::unique_ptr<MpiCommunicator> owned;
    try {
      owned = std::make_unique<MpiCommunicator>(created, comms[id].name, runtime.types(),
                                                options.chunk_elements_max, &progress_);
    } catch (...) {
      MPI_Comm_free(&created);
      throw;
    }
    set_mpi_name(owned->handle(), comms[id].name);
    assert(!comms[id].members || (*comms[id].members)[owned->rank()] == rank_);
    comms_.push_back(std::move(owned));
  }
  assert(comms_.size() == comms.size());
}

MpiWorld::~MpiWorld() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  assert(finalized == 0 && "an MpiWorld must end before its MpiRuntime");
}

std::uint32_t MpiWorld::comm_count() const { return static_cast<std::uint32_t>(comms_.size()); }

const MpiCommunicator* MpiWorld::find(dag::CommId id) const {
  if (id >= comms_.size()) {
    throw std::out_of_range("communicator " + std::to_string(id) + " does not exist; the job has " +
                            std::to_string(comms_.size()));
  }
  return comms_[id].get();
}

MpiCommunicator& MpiWorld::comm(dag::CommId id) {
  const MpiCommunicator* found = find(id);
  if (found == nullptr) {
    throw std::logic_error("rank " + std::to_string(rank_) + " is not a member of communicator " +
                           std::to_string(id) + " ('" + names_[id] + "')");
  }
  return *comms_[id];
}

bool MpiWorld::is_member(dag::CommId id) const { return find(id) != nullptr; }

}  // namespace ordo::comm
