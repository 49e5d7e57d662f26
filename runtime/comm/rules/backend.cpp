#include "runtime/comm/rules/backend.hpp"

#include <string>
#include <variant>

#include "runtime/dag/names.hpp"

namespace ordo::comm {

std::string_view to_string(Backend backend) {
  switch (backend) {
    case Backend::mpi:
      return "mpi";
    case Backend::nccl:
      return "nccl";
  }
  return "?";
}

std::optional<Backend> parse_backend(std::string_view name) {
  if (name == "mpi") return Backend::mpi;
  if (name == "nccl") return Backend::nccl;
  return std::nullopt;
}

std::string unsupported_reason(Backend backend, dag::CollectiveKind kind) {
  if (backend != Backend::nccl) return "";
  switch (kind) {
    case dag::CollectiveKind::gather:
    case dag::CollectiveKind::scatter:
    case dag::CollectiveKind::alltoall:
    case dag::CollectiveKind::scan:
    case dag::CollectiveKind::exscan:
      return "NCCL has no " + std::string(dag::to_string(kind)) +
             " collective; run this call under MPI (--backend mpi)";
    case dag::CollectiveKind::send:
    case dag::CollectiveKind::recv:
      // ncclSend and ncclRecv exist, but as grouped calls on the stream with no receive from
      // any source; ordo's NCCL world does not launch them yet (docs/semantics.md, §8).
      return "ordo's NCCL backend does not run " + std::string(dag::to_string(kind)) +
             " (point to point) yet; run this call under MPI (--backend mpi)";
    default:
      return "";
  }
}

bool call_blocks(Backend backend, bool blocking_in_program) {
  return backend == Backend::mpi && blocking_in_program;
}

dag::Job launch_view(dag::Job job, Backend backend) {
  if (backend == Backend::mpi) return job;
  for (dag::Program& program : job.programs) {
    for (dag::Op& op : program.ops) {
      if (op.kind == dag::OpKind::collective) op.kind = dag::OpKind::async_collective;
    }
  }
  return job;
}

bool streams_add_nothing(const dag::Job& launched) {
  std::optional<dag::CommId> only;
  bool main_calls = false;
  bool op_calls = false;
  const auto on_one = [&only](dag::CommId comm) {
    if (only && *only != comm) return false;
    only = comm;
    return true;
  };
  for (const dag::Program& program : launched.programs) {
    for (const dag::Action& action : program.main) {
      if (const auto* c = std::get_if<dag::CollectiveAction>(&action)) {
        main_calls = true;
        if (!on_one(c->collective.comm)) return false;
      }
    }
    for (const dag::Op& op : program.ops) {
      if (!op.collective) continue;
      if (op.kind == dag::OpKind::collective) return false;  // not a launch view
      op_calls = true;
      if (!on_one(op.collective->comm)) return false;
    }
  }
  return !(main_calls && op_calls);
}

}  // namespace ordo::comm
