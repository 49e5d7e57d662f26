// Which vars a collective op's call works on, picked in one place for the validator, the runtime's
// op bodies and the buffer rule (docs/dag-format.md, "The buffer of a collective"): the buffer is
// the first data (non-token) var the op writes, else the first one it reads (the paper's Fig. 4
// declares a broadcast weight as read); when the op writes a buffer and also reads a data var,
// that var is the source the body copies into the buffer's slice before the call (an
// out-of-place allreduce, as naive's push).
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::dag {

struct CollectiveBuffer {
  std::optional<VarId> buffer;
  std::optional<VarId> source;
  bool buffer_written = false;  // the op declares its buffer among its writes
};

// `is_data(v)` says whether var v holds data; ids it cannot answer for must return false.
CollectiveBuffer collective_buffer(const Op& op, const std::function<bool(VarId)>& is_data);
// The same over a program's var table; ids past it are no data (the validator reports them).
CollectiveBuffer collective_buffer(const Op& op, const std::vector<Var>& vars);

}  // namespace ordo::dag
