#include "runtime/dag/collective_shape.hpp"

#include "runtime/dag/names.hpp"

namespace ordo::dag {

std::vector<ShapeProblem> shape_problems(CollectiveKind kind, std::uint64_t count,
                                         Reduction reduction, std::optional<std::uint64_t> root,
                                         std::optional<std::uint64_t> comm_size) {
  const std::string name(to_string(kind));
  std::vector<ShapeProblem> problems;
  const bool reduces = takes_reduction(kind);
  const bool reduction_known = to_string(reduction) != "?";
  if (reduces && reduction == Reduction::none) {
    problems.push_back({"reduction", name + " has reduction none", "one of: sum, prod, min, max"});
  }
  if (!reduces && reduction_known && reduction != Reduction::none) {
    problems.push_back({"reduction", name + " has reduction " + std::string(to_string(reduction)),
                        "reduction none (only allreduce, reduce, reduce_scatter, scan and exscan "
                        "reduce)"});
  }
  const bool rooted = takes_root(kind);
  if (rooted && !root) {
    problems.push_back({"", name + " has no root", "a 'root' rank of the communicator"});
  }
  if (!rooted && root) {
    problems.push_back(
        {"root", name + " has a root", "a root on bcast, reduce, gather and scatter only"});
  }
  // An empty communicator is reported with its members; it has no root to name.
  if (rooted && root && comm_size && *comm_size > 0 && *root >= *comm_size) {
    problems.push_back({"root",
                        "root " + std::to_string(*root) + " is not a rank of the communicator",
                        "a root from 0 to " + std::to_string(*comm_size - 1) +
                            " (the communicator has " + std::to_string(*comm_size) + " ranks)"});
  }
  if (splits_into_blocks(kind) && comm_size && *comm_size > 0 && count % *comm_size != 0) {
    const std::string size = std::to_string(*comm_size);
    problems.push_back(
        {"count",
         name + " of " + std::to_string(count) +
             " elements does not split into blocks for the communicator's " + size + " ranks",
         "a count that is a multiple of " + size + " (each rank's block is count / " + size + ")"});
  }
  if (kind == CollectiveKind::barrier && count != 0) {
    problems.push_back({"count", "barrier has count " + std::to_string(count), "count 0"});
  }
  return problems;
}

}  // namespace ordo::dag
