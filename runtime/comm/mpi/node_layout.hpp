// Which ranks share a node, as MPI sees it: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) groups the
// ranks that can share memory. The hierarchical design's program is written for nodes of equal
// size holding consecutive ranks (mpirun's default placement by slot); a run placed otherwise is
// refused before any collective of the design, rather than reduced over the wrong groups.
#pragma once

#include <cstdint>

#include "runtime/comm/mpi/runtime.hpp"

namespace ordo::comm {

struct NodeLayout {
  std::uint32_t nodes = 1;
  std::uint32_t node_ranks = 1;  // ranks per node
};

// Collective over MPI_COMM_WORLD. Throws std::invalid_argument, the same on every rank, when the
// nodes differ in size or a node's ranks are not consecutive from a multiple of its size.
NodeLayout node_layout(const MpiRuntime& runtime);

}  // namespace ordo::comm
