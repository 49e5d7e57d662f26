#include "runtime/dag/program.hpp"

#include <algorithm>

namespace ordo::dag {

const Program* program_of(const Job& job, Rank rank) {
  if (job.ranks.has_value() && rank >= *job.ranks) {
    return nullptr;
  }
  // An explicit rank list wins over an SPMD program; in a valid job there is never both.
  for (const Program& program : job.programs) {
    if (program.ranks.has_value() &&
        std::find(program.ranks->begin(), program.ranks->end(), rank) != program.ranks->end()) {
      return &program;
    }
  }
  for (const Program& program : job.programs) {
    if (!program.ranks.has_value()) {
      return &program;
    }
  }
  return nullptr;
}

std::vector<const Program*> programs_by_rank(const Job& job, std::uint32_t ranks) {
  const std::uint32_t covered = job.ranks ? std::min(*job.ranks, ranks) : ranks;
  std::vector<const Program*> by_rank(ranks, nullptr);
  // The first program that lists a rank wins, as in program_of.
  for (const Program& program : job.programs) {
    if (!program.ranks) continue;
    for (const Rank r : *program.ranks) {
      if (r < covered && by_rank[r] == nullptr) by_rank[r] = &program;
    }
  }
  const Program* spmd = nullptr;
  for (const Program& program : job.programs) {
    if (!program.ranks) {
      spmd = &program;
      break;
    }
  }
  for (Rank r = 0; r < covered; ++r) {
    if (by_rank[r] == nullptr) by_rank[r] = spmd;
  }
  return by_rank;
}

std::uint64_t dtype_bytes(DType dtype) {
  switch (dtype) {
    case DType::i8:
    case DType::u8:
      return 1;
    case DType::f16:
    case DType::bf16:
      return 2;
    case DType::f32:
    case DType::i32:
      return 4;
    case DType::f64:
    case DType::i64:
      return 8;
  }
  // Only an integer cast into DType lands here; it has no size, and validate() reports it.
  return 0;
}

bool is_collective(OpKind kind) {
  return kind == OpKind::collective || kind == OpKind::async_collective;
}

bool takes_reduction(CollectiveKind kind) {
  return kind == CollectiveKind::allreduce || kind == CollectiveKind::reduce ||
         kind == CollectiveKind::reduce_scatter || kind == CollectiveKind::scan ||
         kind == CollectiveKind::exscan;
}

bool takes_root(CollectiveKind kind) {
  return kind == CollectiveKind::bcast || kind == CollectiveKind::reduce ||
         kind == CollectiveKind::gather || kind == CollectiveKind::scatter;
}

bool splits_into_blocks(CollectiveKind kind) {
  return kind == CollectiveKind::reduce_scatter || kind == CollectiveKind::allgather ||
         kind == CollectiveKind::gather || kind == CollectiveKind::scatter ||
         kind == CollectiveKind::alltoall;
}

bool is_point_to_point(CollectiveKind kind) {
  return kind == CollectiveKind::send || kind == CollectiveKind::recv;
}

bool has_point_to_point(const Job& job) {
  for (const Program& p : job.programs) {
    for (const Op& op : p.ops) {
      if (op.collective && is_point_to_point(op.collective->kind)) return true;
    }
    for (const Action& a : p.main) {
      const auto* c = std::get_if<CollectiveAction>(&a);
      if (c != nullptr && is_point_to_point(c->collective.kind)) return true;
    }
  }
  return false;
}

}  // namespace ordo::dag
