#include "mpi_env.hpp"

#include <mpi.h>

#include <cassert>
#include <stdexcept>

#include "runtime/comm/mpi/error.hpp"

namespace ordo::comm::test {
namespace {

const MpiRuntime* installed_runtime = nullptr;
MpiWorld* installed_world = nullptr;
constexpr int token_tag = 4242;

}  // namespace

void install(const MpiRuntime* runtime, MpiWorld* world) {
  assert((runtime == nullptr) == (world == nullptr));
  installed_runtime = runtime;
  installed_world = world;
}

const MpiRuntime& runtime() {
  if (installed_runtime == nullptr) throw std::logic_error("no MpiRuntime installed");
  return *installed_runtime;
}

MpiWorld& world() {
  if (installed_world == nullptr) throw std::logic_error("no MpiWorld installed");
  return *installed_world;
}

MpiCommunicator& world_comm() { return world().comm(0); }

void send_token(dag::Rank to) {
  int token = 1;
  check_mpi(MPI_Send(&token, 1, MPI_INT, static_cast<int>(to), token_tag, MPI_COMM_WORLD),
            "MPI_Send");
}

void receive_token(dag::Rank from) {
  int token = 0;
  check_mpi(MPI_Recv(&token, 1, MPI_INT, static_cast<int>(from), token_tag, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE),
            "MPI_Recv");
  if (token != 1) throw std::runtime_error("received a corrupt token");
}

}  // namespace ordo::comm::test
