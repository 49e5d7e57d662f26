#include "runtime/dag/collective_buffer.hpp"

namespace ordo::dag {

namespace {

std::optional<VarId> first_data(const std::vector<VarId>& list,
                                const std::function<bool(VarId)>& is_data) {
  for (VarId v : list) {
    if (is_data(v)) return v;
  }
  return std::nullopt;
}

}  // namespace

CollectiveBuffer collective_buffer(const Op& op, const std::function<bool(VarId)>& is_data) {
  CollectiveBuffer b;
  b.buffer = first_data(op.writes, is_data);
  const std::optional<VarId> read = first_data(op.reads, is_data);
  if (b.buffer) {
    b.buffer_written = true;
    b.source = read;
  } else {
    b.buffer = read;
  }
  return b;
}

CollectiveBuffer collective_buffer(const Op& op, const std::vector<Var>& vars) {
  return collective_buffer(
      op, [&vars](VarId v) { return v < vars.size() && vars[v].kind != VarKind::token; });
}

}  // namespace ordo::dag
