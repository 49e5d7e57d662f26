// MPI's lifetime in one process, as an RAII guard: MPI_Init_thread on construction, MPI_Finalize
// on destruction. MPI can be initialized once per process and never again after finalizing, so
// exactly one MpiRuntime may ever exist in a process; construct it first thing in main, on the
// thread that will also destroy it, and let every MpiWorld end before it does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "runtime/comm/mpi/types.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::comm {

class MpiRuntime {
 public:
  // Requests MPI_THREAD_MULTIPLE, because engine threads issue collectives concurrently on
  // different communicators. Throws std::runtime_error naming the level MPI provided when it is
  // less (MPI is finalized first), std::logic_error when MPI was already initialized or
  // finalized in this process, and MpiError when MPI_Init_thread itself fails.
  // On success MPI_ERRORS_RETURN is set on MPI_COMM_WORLD and MPI_COMM_SELF, so MPI errors come
  // back as codes (and then as MpiError) instead of aborting the job.
  MpiRuntime(int* argc, char*** argv);
  ~MpiRuntime();
  MpiRuntime(const MpiRuntime&) = delete;
  MpiRuntime& operator=(const MpiRuntime&) = delete;

  dag::Rank world_rank() const { return world_rank_; }
  std::uint32_t world_size() const { return world_size_; }
  const MpiTypeTable& types() const { return *types_; }

  // Ends every process of the job with `code` (MPI_Abort on MPI_COMM_WORLD): what a rank does when
  // it fails alone mid-job, since the others wait in collectives it will never join and a
  // finalize would wait for them in turn.
  [[noreturn]] void abort(int code) const;

 private:
  dag::Rank world_rank_ = 0;
  std::uint32_t world_size_ = 0;
  std::unique_ptr<MpiTypeTable> types_;
};

// "MPI_THREAD_SERIALIZED" and so on, for messages; "unknown thread level N" otherwise.
std::string thread_level_name(int level);

}  // namespace ordo::comm
