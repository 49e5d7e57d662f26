#include "tests/checker/spin_test_jobs.hpp"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace ordo::checker::testing {

namespace {

class Draw {
 public:
  explicit Draw(std::uint64_t seed) : engine_(seed) {}
  std::uint32_t below(std::uint32_t n) {
    return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(engine_);
  }
  bool chance(std::uint32_t percent) { return below(100) < percent; }
  std::mt19937_64& engine() { return engine_; }

 private:
  std::mt19937_64 engine_;
};

dag::Collective random_collective(Draw& d, dag::CommId comms) {
  dag::Collective c;
  c.comm = d.below(comms);
  c.key = d.below(2);
  // The random jobs run at 2 ranks, so a count of 2 splits into blocks for every kind.
  switch (d.below(9)) {
    case 0:
      c.kind = dag::CollectiveKind::barrier;
      break;
    case 1:
      c.kind = dag::CollectiveKind::bcast;
      c.count = 1;
      c.root = 0;
      break;
    case 2:
      c.kind = dag::CollectiveKind::reduce;
      c.count = 1;
      c.reduction = dag::Reduction::sum;
      c.root = d.below(2);
      break;
    case 3:
      c.kind = d.chance(50) ? dag::CollectiveKind::reduce_scatter : dag::CollectiveKind::allgather;
      c.count = 2;
      if (c.kind == dag::CollectiveKind::reduce_scatter) c.reduction = dag::Reduction::sum;
      break;
    case 4:  // rooted like bcast and reduce, and returning early like them (C4)
      c.kind = d.chance(50) ? dag::CollectiveKind::gather : dag::CollectiveKind::scatter;
      c.count = 2;
      c.root = d.below(2);
      break;
    case 5:  // member i returns once members 0 to i issued
      c.kind = d.chance(50) ? dag::CollectiveKind::scan : dag::CollectiveKind::exscan;
      c.count = 1;
      c.reduction = dag::Reduction::sum;
      break;
    case 6:
      c.kind = dag::CollectiveKind::alltoall;
      c.count = 2;
      break;
    default:
      c.kind = dag::CollectiveKind::allreduce;
      c.count = 1;
      c.reduction = dag::Reduction::sum;
  }
  return c;
}

dag::Op random_op(Draw& d, std::uint32_t index, std::uint32_t vars, std::uint32_t pools,
                  dag::CommId comms) {
  dag::Op op;
  op.name = "op" + std::to_string(index);
  op.pool = d.below(pools);
  op.priority = static_cast<std::int32_t>(d.below(3));
  const std::uint32_t kind = d.below(10);
  op.kind = kind < 5   ? dag::OpKind::compute
            : kind < 8 ? dag::OpKind::collective
                       : dag::OpKind::async_collective;
  // Each var at most once per op: read, written, or neither.
  for (dag::VarId v = 0; v < vars; ++v) {
    const std::uint32_t use = d.below(4);
    if (use == 0) op.reads.push_back(v);
    if (use == 1 && op.writes.empty()) op.writes.push_back(v);
  }
  if (dag::is_collective(op.kind)) {
    op.collective = random_collective(d, comms);
    // A collective that moves data needs a var to hold it (the validator's rule, because the
    // runtime needs one); var 0 is free when the op names no var at all.
    const bool moves_data = op.collective->kind != dag::CollectiveKind::barrier;
    if (moves_data && op.reads.empty() && op.writes.empty()) op.writes.push_back(0);
  }
  return op;
}

// Submits in a random order, with waits on vars already written and main-thread calls between.
std::vector<dag::Action> random_main(Draw& d, const dag::Program& p, dag::CommId comms) {
  std::vector<dag::OpId> order(p.ops.size());
  for (dag::OpId op = 0; op < order.size(); ++op) order[op] = op;
  std::shuffle(order.begin(), order.end(), d.engine());
  std::vector<dag::Action> main;
  std::vector<dag::VarId> written;
  for (const dag::OpId op : order) {
    main.emplace_back(dag::SubmitAction{op});
    for (const dag::VarId v : p.ops[op].writes) written.push_back(v);
    if (!written.empty() && d.chance(25)) {
      main.emplace_back(
          dag::WaitToReadAction{written[d.below(static_cast<std::uint32_t>(written.size()))]});
    }
    if (d.chance(15)) {
      dag::CollectiveAction call;
      call.collective = random_collective(d, comms);
      call.collective.kind = dag::CollectiveKind::barrier;
      call.collective.count = 0;
      call.collective.root.reset();
      call.collective.reduction = dag::Reduction::none;
      main.emplace_back(call);
    }
  }
  if (d.chance(50)) main.emplace_back(dag::WaitForAllAction{});
  return main;
}

// Rank 1's variant: a collective op dropped (its submission removed, later ops renumbered), or the
// priorities reversed.
dag::Program variant(Draw& d, dag::Program p) {
  std::vector<dag::OpId> collectives;
  for (dag::OpId op = 0; op < p.ops.size(); ++op) {
    if (p.ops[op].collective) collectives.push_back(op);
  }
  if (collectives.empty() || d.chance(50)) {
    for (dag::Op& op : p.ops) op.priority = 2 - op.priority;
    return p;
  }
  const dag::OpId drop = collectives[d.below(static_cast<std::uint32_t>(collectives.size()))];
  p.ops.erase(p.ops.begin() + drop);
  std::vector<dag::Action> main;
  for (dag::Action& action : p.main) {
    if (auto* submit = std::get_if<dag::SubmitAction>(&action)) {
      if (submit->op == drop) continue;
      if (submit->op > drop) --submit->op;
    }
    main.push_back(action);
  }
  p.main = std::move(main);
  // A wait on a var only the dropped op wrote would wait for nothing: the validator refuses it.
  std::vector<bool> written(p.vars.size(), false);
  std::vector<dag::Action> kept;
  for (const dag::Action& action : p.main) {
    if (const auto* submit = std::get_if<dag::SubmitAction>(&action)) {
      for (const dag::VarId v : p.ops[submit->op].writes) written[v] = true;
    }
    if (const auto* wait = std::get_if<dag::WaitToReadAction>(&action)) {
      if (!written[wait->var]) continue;
    }
    kept.push_back(action);
  }
  p.main = std::move(kept);
  return p;
}

}  // namespace

dag::Job random_small_job(std::uint64_t seed) {
  Draw d(seed);
  dag::Job job;
  job.ranks = 2;
  job.comms = {{"world", std::nullopt}};
  if (d.chance(30)) job.comms.push_back({"world2", std::nullopt});
  const auto comms = static_cast<dag::CommId>(job.comms.size());
  dag::Program p;
  p.name = "random" + std::to_string(seed);
  const std::uint32_t pools = 1 + d.below(2);
  for (std::uint32_t i = 0; i < pools; ++i) {
    p.pools.push_back({"pool" + std::to_string(i), 1 + d.below(2),
                       d.chance(30) ? dag::PoolKind::priority : dag::PoolKind::fifo});
  }
  const std::uint32_t vars = 2 + d.below(2);
  for (std::uint32_t v = 0; v < vars; ++v) {
    p.vars.push_back({"v" + std::to_string(v), dag::VarKind::tensor, 64, dag::DType::f32});
  }
  const std::uint32_t ops = 2 + d.below(3);
  for (std::uint32_t i = 0; i < ops; ++i) p.ops.push_back(random_op(d, i, vars, pools, comms));
  p.main = random_main(d, p, comms);
  if (d.chance(60)) {
    job.programs = {p};
    return job;
  }
  dag::Program second = variant(d, p);
  p.ranks = std::vector<dag::Rank>{0};
  second.ranks = std::vector<dag::Rank>{1};
  second.name += ".variant";
  job.programs = {p, second};
  return job;
}

namespace {

dag::Program one_pool_program(const std::string& name, dag::Rank rank, std::uint32_t threads) {
  dag::Program p;
  p.name = name;
  p.ranks = std::vector<dag::Rank>{rank};
  p.pools = {{"comm", threads, dag::PoolKind::fifo}};
  return p;
}

// Adds a collective op writing a buffer var of its own, and its submission.
void add_collective(dag::Program& p, dag::OpKind kind, const dag::Collective& call) {
  const auto var = static_cast<dag::VarId>(p.vars.size());
  p.vars.push_back({"buf" + std::to_string(var), dag::VarKind::buffer, 16, dag::DType::f32});
  dag::Op op;
  op.name = "op" + std::to_string(p.ops.size());
  op.kind = kind;
  op.writes = {var};
  op.collective = call;
  p.main.emplace_back(dag::SubmitAction{static_cast<dag::OpId>(p.ops.size())});
  p.ops.push_back(op);
}

dag::Collective allreduce(std::int64_t key) {
  return dag::Collective{dag::CollectiveKind::allreduce,
                         0,
                         key,
                         4,
                         dag::DType::f32,
                         dag::Reduction::sum,
                         std::nullopt};
}

dag::Job two_ranks(dag::Program rank0, dag::Program rank1) {
  rank0.main.emplace_back(dag::WaitForAllAction{});
  rank1.main.emplace_back(dag::WaitForAllAction{});
  dag::Job job;
  job.ranks = 2;
  job.comms = {{"world", std::nullopt}};
  job.programs = {std::move(rank0), std::move(rank1)};
  return job;
}

}  // namespace

dag::Job async_pair_two_threads() {
  dag::Program p = one_pool_program("async_pair", 0, 2);
  p.ranks.reset();
  add_collective(p, dag::OpKind::async_collective, allreduce(0));
  add_collective(p, dag::OpKind::async_collective, allreduce(1));
  p.main.emplace_back(dag::WaitForAllAction{});
  dag::Job job;
  job.ranks = 2;
  job.comms = {{"world", std::nullopt}};
  job.programs = {p};
  return job;
}

dag::Job blocking_meets_non_blocking() {
  dag::Program blocking = one_pool_program("blocking", 0, 1);
  add_collective(blocking, dag::OpKind::collective, allreduce(0));
  dag::Program non_blocking = one_pool_program("non_blocking", 1, 1);
  add_collective(non_blocking, dag::OpKind::async_collective, allreduce(0));
  return two_ranks(std::move(blocking), std::move(non_blocking));
}

dag::Job barriers_of_different_keys() {
  const auto barrier = [](std::int64_t key, dag::DType dtype) {
    return dag::Collective{dag::CollectiveKind::barrier, 0,           key, 0, dtype,
                           dag::Reduction::none,         std::nullopt};
  };
  dag::Program p0 = one_pool_program("barrier_key0", 0, 1);
  add_collective(p0, dag::OpKind::collective, barrier(0, dag::DType::f32));
  dag::Program p1 = one_pool_program("barrier_key1", 1, 1);
  add_collective(p1, dag::OpKind::collective, barrier(1, dag::DType::f64));
  return two_ranks(std::move(p0), std::move(p1));
}

dag::Job reduce_roots_differ() {
  const auto reduce = [](dag::Rank root) {
    return dag::Collective{dag::CollectiveKind::reduce, 0,   0, 4, dag::DType::f32,
                           dag::Reduction::sum,         root};
  };
  dag::Program p0 = one_pool_program("reduce_root0", 0, 1);
  add_collective(p0, dag::OpKind::async_collective, reduce(0));
  dag::Program p1 = one_pool_program("reduce_root1", 1, 1);
  add_collective(p1, dag::OpKind::async_collective, reduce(1));
  return two_ranks(std::move(p0), std::move(p1));
}

}  // namespace ordo::checker::testing
