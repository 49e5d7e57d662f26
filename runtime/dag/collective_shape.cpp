#include "runtime/dag/collective_shape.hpp"

#include "runtime/dag/names.hpp"

namespace ordo::dag {
namespace {

void add_peer_problems(CollectiveKind kind, std::optional<std::uint64_t> comm_size,
                       std::optional<std::uint64_t> peer, std::uint64_t tag,
                       std::vector<ShapeProblem>& problems) {
  const std::string name(to_string(kind));
  const bool recv = kind == CollectiveKind::recv;
  if (!is_point_to_point(kind)) {
    if (peer) problems.push_back({"peer", name + " has a peer", "a peer on send and recv only"});
    if (tag != 0) {
      problems.push_back(
          {"tag", name + " has tag " + std::to_string(tag), "a tag on send and recv only"});
    }
    return;
  }
  if (!peer) {
    problems.push_back({"", name + " has no peer",
                        recv ? "a 'peer' rank of the communicator to receive from, or \"any\""
                             : "a 'peer' rank of the communicator to send to"});
  } else if (*peer == any_source && !recv) {
    problems.push_back({"peer", "send to any source", "a rank of the communicator to send to"});
  } else if (*peer != any_source && comm_size && *comm_size > 0 && *peer >= *comm_size) {
    problems.push_back(
        {"peer", "peer " + std::to_string(*peer) + " is not a rank of the communicator",
         "a peer from 0 to " + std::to_string(*comm_size - 1) + " (the communicator has " +
             std::to_string(*comm_size) + " ranks)" + (recv ? ", or \"any\"" : "")});
  }
  if (tag > tag_max) {
    problems.push_back(
        {"tag", "tag " + std::to_string(tag),
         "a tag from 0 to " + std::to_string(tag_max) + " (MPI's least MPI_TAG_UB)"});
  }
}

}  // namespace

std::vector<ShapeProblem> shape_problems(CollectiveKind kind, std::uint64_t count,
                                         Reduction reduction, std::optional<std::uint64_t> root,
                                         std::optional<std::uint64_t> comm_size,
                                         std::optional<std::uint64_t> peer, std::uint64_t tag) {
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
  add_peer_problems(kind, comm_size, peer, tag, problems);
  return problems;
}

}  // namespace ordo::dag
