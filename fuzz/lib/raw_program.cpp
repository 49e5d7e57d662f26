#include "fuzz/lib/raw_program.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "fuzz/lib/sizes.hpp"

namespace ordo::fuzz {

namespace {

// Mostly zero: a departure from the shared script is the exception, not the rule.
std::uint32_t rare_rank_mask(Draws& d) {
  return d.weighted({6, 1}) == 0 ? 0 : static_cast<std::uint32_t>(d.between(1, 7));
}

constexpr std::array<dag::Reduction, 4> reductions{dag::Reduction::sum, dag::Reduction::prod,
                                                   dag::Reduction::min, dag::Reduction::max};

bool has(std::uint32_t mask, std::uint32_t bit) { return ((mask >> bit) & 1u) != 0; }

// What one rank sees of the job while it builds its program.
struct RankBuild {
  const RawRecipe& recipe;
  const dag::Job& job;
  dag::Rank rank = 0;
  dag::Program program;
  std::vector<bool> written;  // per var: an op submitted so far writes it

  std::uint32_t vars() const { return recipe.data_vars + recipe.tokens; }
  bool is_member(dag::CommId comm) const {
    const auto& members = job.comms[comm].members;
    return !members || std::find(members->begin(), members->end(), rank) != members->end();
  }
  std::uint32_t comm_size(dag::CommId comm) const {
    const auto& members = job.comms[comm].members;
    return members ? static_cast<std::uint32_t>(members->size()) : recipe.ranks;
  }
  std::vector<dag::VarId> vars_in(std::uint32_t mask) const {
    std::vector<dag::VarId> out;
    for (dag::VarId v = 0; v < vars(); ++v) {
      if (has(mask, v)) out.push_back(v);
    }
    return out;
  }

  void submit(dag::Op op) {
    for (dag::VarId v : op.writes) written[v] = true;
    program.main.emplace_back(dag::SubmitAction{static_cast<dag::OpId>(program.ops.size())});
    program.ops.push_back(std::move(op));
  }

  dag::Collective collective(const EventRecipe& e, std::int64_t key, dag::CommId comm) const {
    dag::Collective c;
    c.kind = static_cast<dag::CollectiveKind>(e.kind % dag::collective_kind_count);
    c.comm = comm;
    c.key = key;
    c.dtype = static_cast<dag::DType>(e.dtype % 8);
    if (dag::splits_into_blocks(c.kind)) {
      // A count that splits at this communicator's size, 0 or one element per member; a bump
      // swaps the two, so a rank's departure stays a valid call that disagrees in its count.
      const bool full = (e.count % 2 == 1) != has(e.bump, rank);
      c.count = full ? comm_size(comm) : 0;
    } else if (c.kind != dag::CollectiveKind::barrier) {
      c.count = e.count % (sizes::raw_count_max + 1) + (has(e.bump, rank) ? 1 : 0);
    }
    if (dag::takes_reduction(c.kind)) c.reduction = reductions[e.reduction % 4];
    if (dag::takes_root(c.kind)) c.root = e.root % comm_size(comm);
    return c;
  }

  dag::Op op_base(const EventRecipe& e, std::size_t index, dag::OpKind kind) const {
    dag::Op op;
    op.name = "e" + std::to_string(index);
    op.kind = kind;
    op.pool = static_cast<dag::PoolId>(e.pool % program.pools.size());
    op.priority = e.priority;
    return op;
  }

  void compute_op(const EventRecipe& e, std::size_t index) {
    dag::Op op = op_base(e, index, dag::OpKind::compute);
    op.writes = vars_in(e.writes);
    for (dag::VarId v : vars_in(e.reads)) {
      if (!has(e.writes, v)) op.reads.push_back(v);
    }
    submit(std::move(op));
  }

  // The runtime copies one var's bytes into another: a copy needs two distinct data vars.
  void copy_op(const EventRecipe& e, std::size_t index) {
    const dag::VarId from = e.var % recipe.data_vars;
    std::optional<dag::VarId> to;
    for (dag::VarId v = 0; v < recipe.data_vars && !to; ++v) {
      if (has(e.writes, v) && v != from) to = v;
    }
    if (!to) return compute_op(e, index);
    dag::Op op = op_base(e, index, dag::OpKind::copy);
    op.reads = {from};
    op.writes = {*to};
    submit(std::move(op));
  }

  // The buffer comes first among the writes, as the runtime takes the first data var written;
  // other writes are tokens only, which order the op without being filled. Where the recipe
  // reads the buffer and does not write it, the op declares it only as read, as the paper's
  // Fig. 4 declares a broadcast weight: a call that receives then writes a var its op holds for
  // reading (docs/semantics.md, B3).
  void collective_op(const EventRecipe& e, std::size_t index, dag::CommId comm, bool async) {
    dag::Op op = op_base(e, index, async ? dag::OpKind::async_collective : dag::OpKind::collective);
    const dag::VarId buffer = e.var % recipe.data_vars;
    if (has(e.reads, buffer) && !has(e.writes, buffer)) {
      op.reads = {buffer};  // first: the runtime takes the first data var read
      for (dag::VarId v : vars_in(e.reads)) {
        if (v != buffer && !has(e.writes, v)) op.reads.push_back(v);
      }
      for (dag::VarId v : vars_in(e.writes)) {
        if (v >= recipe.data_vars) op.writes.push_back(v);
      }
      op.collective = collective(e, static_cast<std::int64_t>(index), comm);
      return submit(std::move(op));
    }
    op.writes = {buffer};
    for (dag::VarId v : vars_in(e.writes)) {
      if (v >= recipe.data_vars) op.writes.push_back(v);
    }
    for (dag::VarId v : vars_in(e.reads)) {
      if (std::find(op.writes.begin(), op.writes.end(), v) == op.writes.end()) {
        op.reads.push_back(v);
      }
    }
    op.collective = collective(e, static_cast<std::int64_t>(index), comm);
    submit(std::move(op));
  }

  void main_collective(const EventRecipe& e, std::size_t index, dag::CommId comm) {
    dag::CollectiveAction a;
    a.collective = collective(e, static_cast<std::int64_t>(index), comm);
    if (a.collective.kind != dag::CollectiveKind::barrier) a.buffer = e.var % recipe.data_vars;
    program.main.emplace_back(a);
  }

  // A wait names a var some submitted op writes, or else waits for everything.
  void wait(const EventRecipe& e) {
    std::vector<dag::VarId> candidates;
    for (dag::VarId v = 0; v < vars(); ++v) {
      if (written[v]) candidates.push_back(v);
    }
    if (candidates.empty()) {
      program.main.emplace_back(dag::WaitForAllAction{});
    } else {
      program.main.emplace_back(dag::WaitToReadAction{candidates[e.var % candidates.size()]});
    }
  }

  void add(const EventRecipe& e, std::size_t index) {
    if (has(e.skip, rank)) return;
    const auto comm = static_cast<dag::CommId>(e.comm % job.comms.size());
    switch (e.what) {
      case EventRecipe::compute:
        return compute_op(e, index);
      case EventRecipe::copy:
        return copy_op(e, index);
      case EventRecipe::collective_op:
      case EventRecipe::async_collective_op:
        if (is_member(comm)) {
          collective_op(e, index, comm, e.what == EventRecipe::async_collective_op);
        }
        return;
      case EventRecipe::main_collective:
        if (is_member(comm)) main_collective(e, index, comm);
        return;
      case EventRecipe::wait_to_read:
        return wait(e);
      default:
        program.main.emplace_back(dag::WaitForAllAction{});
        return;
    }
  }
};

std::vector<dag::Communicator> comms_of(const RawRecipe& recipe) {
  std::vector<dag::Communicator> comms{{"world", std::nullopt}};
  const std::uint32_t all = (1u << recipe.ranks) - 1;
  for (std::size_t i = 0; i < recipe.comms.size(); ++i) {
    const CommRecipe& c = recipe.comms[i];
    dag::Communicator comm{"c" + std::to_string(i + 1), std::nullopt};
    const std::uint32_t mask = c.members & all;
    if (mask != 0 && (mask != all || c.reversed)) {
      std::vector<dag::Rank> members;
      for (dag::Rank r = 0; r < recipe.ranks; ++r) {
        if (has(mask, r)) members.push_back(r);
      }
      if (c.reversed) std::reverse(members.begin(), members.end());
      comm.members = std::move(members);
    }
    comms.push_back(std::move(comm));
  }
  return comms;
}

std::vector<dag::Var> vars_of(const RawRecipe& recipe) {
  std::vector<dag::Var> vars;
  for (std::uint32_t d = 0; d < recipe.data_vars; ++d) {
    vars.push_back({"d" + std::to_string(d),
                    d % 2 == 0 ? dag::VarKind::tensor : dag::VarKind::buffer, sizes::raw_var_bytes,
                    dag::DType::f32});
  }
  for (std::uint32_t t = 0; t < recipe.tokens; ++t) {
    vars.push_back({"t" + std::to_string(t), dag::VarKind::token, 0, dag::DType::u8});
  }
  return vars;
}

EventRecipe draw_event(Draws& d) {
  const auto below = [&d](std::uint64_t bound) {
    return static_cast<std::uint32_t>(d.below(bound));
  };
  EventRecipe e;
  // In the order of EventRecipe::What: compute, copy, collective_op, async_collective_op,
  // main_collective, wait_to_read, wait_for_all.
  e.what = static_cast<std::uint32_t>(d.weighted({3, 1, 3, 1, 2, 2, 1}));
  e.pool = below(2);
  e.reads = below(32);
  e.writes = below(32);
  e.var = below(8);
  e.priority = static_cast<std::int32_t>(d.below(3));
  e.comm = below(3);
  e.kind = below(6);
  e.count = d.below(sizes::raw_count_max + 1);
  e.dtype = below(8);
  e.reduction = below(4);
  e.root = below(3);
  e.skip = rare_rank_mask(d);
  e.bump = rare_rank_mask(d);
  return e;
}

}  // namespace

RawRecipe draw_raw_recipe(Draws& d) {
  RawRecipe r;
  r.ranks = static_cast<std::uint32_t>(d.between(2, sizes::raw_ranks_max));
  r.comms.resize(d.below(sizes::raw_extra_comms_max + 1));
  for (CommRecipe& c : r.comms) {
    c.members = static_cast<std::uint32_t>(d.below(8));
    c.reversed = d.one_in(2);
  }
  r.pools.resize(d.between(1, sizes::raw_pools_max));
  for (PoolRecipe& p : r.pools) {
    p.threads = static_cast<std::uint32_t>(d.between(1, sizes::raw_pool_threads_max));
    p.priority = d.one_in(4);
  }
  r.data_vars = static_cast<std::uint32_t>(d.between(1, sizes::raw_data_vars_max));
  r.tokens = static_cast<std::uint32_t>(d.below(sizes::raw_tokens_max + 1));
  r.events.resize(d.between(1, sizes::raw_events_max));
  for (EventRecipe& e : r.events) e = draw_event(d);
  return r;
}

Instance to_instance(const RawRecipe& recipe) {
  Instance instance;
  instance.ranks = recipe.ranks;
  instance.job.ranks = recipe.ranks;
  instance.job.comms = comms_of(recipe);
  std::uint32_t submits = 0;
  for (dag::Rank r = 0; r < recipe.ranks; ++r) {
    RankBuild build{
        recipe, instance.job, r, {}, std::vector<bool>(recipe.data_vars + recipe.tokens)};
    build.program.name = "rank" + std::to_string(r);
    build.program.ranks = std::vector<dag::Rank>{r};
    build.program.vars = vars_of(recipe);
    for (std::size_t p = 0; p < recipe.pools.size(); ++p) {
      build.program.pools.push_back(
          {"p" + std::to_string(p), recipe.pools[p].threads,
           recipe.pools[p].priority ? dag::PoolKind::priority : dag::PoolKind::fifo});
    }
    for (std::size_t i = 0; i < recipe.events.size(); ++i) build.add(recipe.events[i], i);
    submits += static_cast<std::uint32_t>(build.program.ops.size());
    instance.job.programs.push_back(std::move(build.program));
  }
  instance.origin = "raw program, " + std::to_string(recipe.events.size()) + " events, " +
                    std::to_string(submits) + " ops over all ranks";
  return instance;
}

Instance draw_raw_job(Draws& draws) { return to_instance(draw_raw_recipe(draws)); }

}  // namespace ordo::fuzz
