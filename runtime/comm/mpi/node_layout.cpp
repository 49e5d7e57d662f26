#include "runtime/comm/mpi/node_layout.hpp"

#include <mpi.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/comm/mpi/error.hpp"

namespace ordo::comm {

NodePlace node_place(const MpiRuntime& runtime) {
  MPI_Comm node = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED,
                                static_cast<int>(runtime.world_rank()), MPI_INFO_NULL, &node),
            "MPI_Comm_split_type");
  int local_rank = 0;
  int local_size = 0;
  const int rank_code = MPI_Comm_rank(node, &local_rank);
  const int size_code = MPI_Comm_size(node, &local_size);
  MPI_Comm_free(&node);
  check_mpi(rank_code, "MPI_Comm_rank");
  check_mpi(size_code, "MPI_Comm_size");
  return NodePlace{static_cast<std::uint32_t>(local_rank), static_cast<std::uint32_t>(local_size)};
}

NodeLayout node_layout(const MpiRuntime& runtime) {
  const NodePlace place = node_place(runtime);
  // Every rank learns every rank's (local rank, local size), so all of them reach one answer.
  const int mine[2] = {static_cast<int>(place.rank), static_cast<int>(place.ranks)};
  std::vector<int> all(2 * static_cast<std::size_t>(runtime.world_size()));
  check_mpi(MPI_Allgather(mine, 2, MPI_INT, all.data(), 2, MPI_INT, MPI_COMM_WORLD),
            "MPI_Allgather");
  const int size = all[1];
  for (std::uint32_t r = 0; r < runtime.world_size(); ++r) {
    const int local = all[2 * r];
    const int shared = all[2 * r + 1];
    if (shared != size || local != static_cast<int>(r % static_cast<std::uint32_t>(size))) {
      throw std::invalid_argument(
          "the ranks are not placed in equal nodes of consecutive ranks: rank " +
          std::to_string(r) + " is rank " + std::to_string(local) + " of " +
          std::to_string(shared) + " on its node, where nodes of " + std::to_string(size) +
          " would make it rank " + std::to_string(r % static_cast<std::uint32_t>(size)) +
          " (place ranks by slot, e.g. mpirun --map-by slot)");
    }
  }
  return NodeLayout{runtime.world_size() / static_cast<std::uint32_t>(size),
                    static_cast<std::uint32_t>(size)};
}

}  // namespace ordo::comm
