// One rank's handle on one MPI communicator: the Communicator interface over MPI_Allreduce,
// MPI_Bcast, MPI_Barrier, MPI_Reduce, MPI_Reduce_scatter_block and MPI_Allgather and their
// non-blocking forms.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "runtime/comm/communicator.hpp"
#include "runtime/comm/mpi/progress.hpp"
#include "runtime/comm/mpi/request.hpp"
#include "runtime/comm/mpi/types.hpp"

namespace ordo::comm {

// Immutable after construction, so several threads may issue collectives through one object; MPI
// itself forbids two threads having collectives in flight on one communicator at once, and
// keeping to that is the caller's job (it is exactly what the checker proves of a DAG).
//
// Counts above the chunk size (INT_MAX elements unless a smaller one is configured) are issued as
// several MPI calls, identical on every rank; a non-blocking call keeps one MPI request per chunk
// and rejects counts needing more than limits::mpi_requests_per_start_max chunks. A
// reduce_scatter or allgather is one MPI call of one block per rank, and a block above the chunk
// size is refused.
class MpiCommunicator final : public Communicator {
 public:
  // Takes ownership of `comm`, sets MPI_ERRORS_RETURN on it and frees it on destruction, which
  // must happen before MPI_Finalize. `types` must outlive this object.
  // `progress` completes start_then's requests; without one, start_then waits on the caller's
  // thread (Communicator's default). It must outlive the requests this object starts.
  MpiCommunicator(MPI_Comm comm, std::string name, const MpiTypeTable& types,
                  std::uint64_t chunk_elements_max, MpiProgress* progress = nullptr);
  ~MpiCommunicator() override;
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  const std::string& name() const override { return name_; }
  dag::Rank rank() const override { return rank_; }
  std::uint32_t size() const override { return size_; }

  // Throws std::invalid_argument for a malformed call (see check_call) and MpiError when MPI
  // fails; the MpiError's message names the collective and this communicator.
  void call(const Call& call, void* buffer) override;
  std::unique_ptr<Request> start(const Call& call, void* buffer) override;
  // Starts the collective and returns; `done` runs on the world's progress thread when it ends.
  void start_then(const Call& call, void* buffer, Done done) override;

  // The underlying communicator, for direct MPI use alongside ordo's calls.
  MPI_Comm handle() const { return comm_; }

 private:
  void check(const Call& call, const void* buffer) const;
  // One MPI call on one chunk of an allreduce or bcast.
  void blocking_chunk(const Call& call, std::byte* first, int count);
  MPI_Request nonblocking_chunk(const Call& call, std::byte* first, int count);
  // The one MPI call of a reduce_scatter or allgather, never chunked; `request` receives the
  // non-blocking form's request.
  void blocks(const Call& call, void* buffer, bool blocking, MpiRequest* request);
  // A send or recv (docs/semantics.md, §3b): one MPI call, never chunked.
  void message(const Call& call, void* buffer, bool blocking, MpiRequest* request);

  MPI_Comm comm_;
  std::string name_;
  const MpiTypeTable& types_;
  std::uint64_t chunk_elements_max_;
  MpiProgress* progress_;
  dag::Rank rank_ = 0;
  std::uint32_t size_ = 0;
};

}  // namespace ordo::comm
