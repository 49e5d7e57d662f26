// Which ranks share a node, as MPI sees it: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) groups the
// ranks that can share memory. The hierarchical design's program is written for nodes of equal
// size holding consecutive ranks (mpirun's default placement by slot); a run placed otherwise is
// refused before any collective of the design, rather than reduced over the wrong groups.
#pragma once

#include <cstdint>

#include "runtime/comm/mpi/runtime.hpp"

namespace ordo::comm {

// This rank's place among the ranks of its node, wherever the ranks are placed.
struct NodePlace {
  std::uint32_t rank = 0;   // among the node's ranks, in world-rank order
  std::uint32_t ranks = 1;  // on the node
};
// Collective over MPI_COMM_WORLD: which GPU of its node a rank takes, and how many share it.
NodePlace node_place(const MpiRuntime& runtime);

struct NodeLayout {
  std::uint32_t nodes = 1;
  std::uint32_t node_ranks = 1;  // ranks per node
};

// Collective over MPI_COMM_WORLD. Throws std::invalid_argument, the same on every rank, when the
// nodes differ in size or a node's ranks are not consecutive from a multiple of its size.
NodeLayout node_layout(const MpiRuntime& runtime);

}  // namespace ordo::comm
