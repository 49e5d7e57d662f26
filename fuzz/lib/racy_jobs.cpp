#include "fuzz/lib/racy_jobs.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ordo::fuzz {

namespace {

struct RacyOp {
  bool async = false;
  std::uint32_t comm = 0;  // modulo the communicators
  std::uint32_t kind = 0;  // modulo the collective kinds, in declaration order
  // A bcast or reduce root of comm size - 2 + root_edge, so from 1 below the last rank to 1
  // above it (-2..+1 of the size); the top edge, 3, also makes a reduce_scatter's or allgather's
  // count one more than splits.
  std::uint32_t root_edge = 0;
  bool chained = false;         // reads the token the previous op wrote
  bool barrier_before = false;  // the main thread calls a world barrier before submitting it
  std::uint32_t flip = 0;       // bit r: rank r issues the other form (blocking or not)
};

struct RacyRecipe {
  std::uint32_t ranks = 2;
  bool fixed_ranks = true;  // false: one SPMD program, meaningful at any count (roots matter)
  std::uint32_t comms = 1;
  std::uint32_t threads = 2;
  bool priority = false;
  std::vector<RacyOp> ops;
};

// Elements of every call that moves data but splits into no blocks, and its buffer's size (f32).
constexpr std::uint64_t elements = 4;
constexpr std::uint64_t var_bytes = elements * 4;

dag::Collective collective_of(const RacyOp& o, std::size_t index, std::uint32_t comms,
                              std::uint32_t comm_size) {
  dag::Collective c;
  c.kind = static_cast<dag::CollectiveKind>(o.kind % dag::collective_kind_count);
  c.comm = static_cast<dag::CommId>(o.comm % comms);
  c.key = static_cast<std::int64_t>(index);
  if (c.kind != dag::CollectiveKind::barrier) c.count = elements;
  // A kind that splits into blocks moves one element per member, or, at the top edge, one more
  // than splits: that edge of validity, like the root's, the checker must see both sides of.
  if (dag::splits_into_blocks(c.kind)) c.count = comm_size + (o.root_edge == 3 ? 1 : 0);
  if (dag::takes_reduction(c.kind)) c.reduction = dag::Reduction::sum;
  if (dag::takes_root(c.kind)) {
    const std::int64_t root = static_cast<std::int64_t>(comm_size) - 2 + o.root_edge;
    c.root = static_cast<dag::Rank>(root < 0 ? 0 : root);
  }
  return c;
}

dag::Program program_for(const RacyRecipe& recipe, std::optional<dag::Rank> rank) {
  dag::Program p;
  p.name = rank ? "rank" + std::to_string(*rank) : "step";
  if (rank) p.ranks = std::vector<dag::Rank>{*rank};
  p.pools.push_back(
      {"comm", recipe.threads, recipe.priority ? dag::PoolKind::priority : dag::PoolKind::fifo});
  for (std::size_t i = 0; i < recipe.ops.size(); ++i) {
    p.vars.push_back({"buf" + std::to_string(i), dag::VarKind::buffer, var_bytes, dag::DType::f32});
    p.vars.push_back({"tok" + std::to_string(i), dag::VarKind::token, 0, dag::DType::u8});
  }
  for (std::size_t i = 0; i < recipe.ops.size(); ++i) {
    const RacyOp& o = recipe.ops[i];
    if (o.barrier_before) {
      dag::CollectiveAction b;
      b.collective.kind = dag::CollectiveKind::barrier;
      b.collective.key = -1;
      p.main.emplace_back(b);
    }
    const bool flipped = rank && ((o.flip >> *rank) & 1u) != 0;
    dag::Op op;
    op.name = "c" + std::to_string(i);
    op.kind = (o.async != flipped) ? dag::OpKind::async_collective : dag::OpKind::collective;
    op.priority = static_cast<std::int32_t>(recipe.ops.size() - i);
    const auto buf = static_cast<dag::VarId>(2 * i);
    const auto tok = static_cast<dag::VarId>(2 * i + 1);
    op.writes = {buf, tok};
    if (o.chained && i > 0) op.reads = {static_cast<dag::VarId>(2 * i - 1)};
    op.collective = collective_of(o, i, recipe.comms, recipe.ranks);
    p.main.emplace_back(dag::SubmitAction{static_cast<dag::OpId>(p.ops.size())});
    p.ops.push_back(std::move(op));
  }
  p.main.emplace_back(dag::WaitForAllAction{});
  return p;
}

Instance racy_instance(const RacyRecipe& recipe) {
  Instance instance;
  instance.ranks = recipe.ranks;
  for (std::uint32_t c = 0; c < recipe.comms; ++c) {
    instance.job.comms.push_back({c == 0 ? "world" : "dup" + std::to_string(c), std::nullopt});
  }
  if (recipe.fixed_ranks) {
    instance.job.ranks = recipe.ranks;
    for (dag::Rank r = 0; r < recipe.ranks; ++r) {
      instance.job.programs.push_back(program_for(recipe, r));
    }
  } else {
    instance.job.programs.push_back(program_for(recipe, std::nullopt));
  }
  instance.origin = "racy job, " + std::to_string(recipe.ops.size()) + " collective ops on " +
                    std::to_string(recipe.threads) + " threads" +
                    (recipe.fixed_ranks ? "" : ", any rank count");
  return instance;
}

}  // namespace

Instance draw_racy_job(Draws& d) {
  RacyRecipe r;
  r.ranks = static_cast<std::uint32_t>(d.between(2, 3));
  r.fixed_ranks = d.one_in(2);
  r.comms = static_cast<std::uint32_t>(d.between(1, 2));
  r.threads = static_cast<std::uint32_t>(d.between(1, 3));
  r.priority = d.one_in(4);
  r.ops.resize(d.between(1, 4));
  for (RacyOp& o : r.ops) {
    o.async = d.one_in(2);
    o.comm = static_cast<std::uint32_t>(d.below(2));
    // allreduce most often, then bcast; every kind now and then.
    o.kind = static_cast<std::uint32_t>(d.weighted({4, 2, 1, 1, 1, 1}));
    o.root_edge = static_cast<std::uint32_t>(d.below(4));
    o.chained = d.one_in(4);
    o.barrier_before = d.one_in(5);
    o.flip = d.weighted({5, 1}) == 0 ? 0 : static_cast<std::uint32_t>(d.between(1, 7));
  }
  return racy_instance(r);
}

}  // namespace ordo::fuzz
