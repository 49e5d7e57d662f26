#include "runtime/comm/mpi/runtime.hpp"

#include <mpi.h>

#include <cassert>
#include <stdexcept>
#include <string>

#include "runtime/comm/mpi/error.hpp"

namespace ordo::comm {
namespace {

void require_fresh_process() {
  int finalized = 0;
  int initialized = 0;
  check_mpi(MPI_Finalized(&finalized), "MPI_Finalized");
  check_mpi(MPI_Initialized(&initialized), "MPI_Initialized");
  if (finalized != 0) {
    throw std::logic_error(
        "MpiRuntime: MPI was already finalized in this process and cannot be initialized again; "
        "create one MpiRuntime per process");
  }
  if (initialized != 0) {
    throw std::logic_error(
        "MpiRuntime: MPI is already initialized in this process; create exactly one MpiRuntime, "
        "before any other use of MPI");
  }
}

// Only called between a successful MPI_Init_thread and a matching finalize.
void set_errors_return() {
  check_mpi(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check_mpi(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
}

std::uint32_t checked_count(int value, const char* what) {
  if (value < 0) throw std::runtime_error(std::string("MPI reported a negative ") + what);
  return static_cast<std::uint32_t>(value);
}

}  // namespace

MpiRuntime::MpiRuntime(int* argc, char*** argv) {
  require_fresh_process();
  int provided = MPI_THREAD_SINGLE;
  check_mpi(MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
  try {
    if (provided < MPI_THREAD_MULTIPLE) {
      throw std::runtime_error("MpiRuntime: ordo needs MPI_THREAD_MULTIPLE but this MPI provides " +
                               thread_level_name(provided) +
                               "; use an MPI library built with thread support");
    }
    set_errors_return();
    int rank = 0;
    int size = 0;
    check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
    world_rank_ = checked_count(rank, "world rank");
    world_size_ = checked_count(size, "world size");
    assert(world_rank_ < world_size_);
    types_ = std::make_unique<MpiTypeTable>();
  } catch (...) {
    types_.reset();
    MPI_Finalize();
    throw;
  }
}

MpiRuntime::~MpiRuntime() {
  types_.reset();
  // Nothing to report to: a destructor cannot throw, and the process is ending MPI either way.
  MPI_Finalize();
}

std::string thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "unknown thread level " + std::to_string(level);
  }
}

}  // namespace ordo::comm
