// The shape MPI needs of one collective, written once for every place that checks it: the
// dump's validator (each problem located in the file), every backend and the checker before a
// call is made (each problem thrown, naming the call). The rules (docs/semantics.md, C2):
//   allreduce, reduce, reduce_scatter take a reduction other than none; the others none;
//   bcast and reduce take a root below the communicator's size; the others none;
//   reduce_scatter and allgather split count into one block per member: a multiple of the size;
//   barrier carries no data: count 0;
//   send and recv take a peer below the communicator's size (a recv also any_source) and a tag
//   up to tag_max; the other kinds neither.
// Root and blocks depend on the communicator's size, which a job without a rank count may not
// fix yet: without it they are checked where the count is known (docs/semantics.md, V1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::dag {

struct ShapeProblem {
  std::string_view field;  // the spec's field at fault ("reduction", "root", "count"); "" the spec
  std::string found;       // "allreduce has reduction none"
  std::string expected;    // "one of: sum, prod, min, max"
};

// Every problem of the shape, in the order above; empty when it is well formed. `kind` must be a
// valid value; a reduction outside the enum is left to the caller's own enum check.
std::vector<ShapeProblem> shape_problems(CollectiveKind kind, std::uint64_t count,
                                         Reduction reduction, std::optional<std::uint64_t> root,
                                         std::optional<std::uint64_t> comm_size,
                                         std::optional<std::uint64_t> peer, std::uint64_t tag);

}  // namespace ordo::dag
