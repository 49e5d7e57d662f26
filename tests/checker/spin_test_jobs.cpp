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
  switch (d.below(3)) {
    case 0:
      c.kind = dag::CollectiveKind::barrier;
      break;
    case 1:
      c.kind = dag::CollectiveKind::bcast;
      c.count = 1;
      c.root = 0;
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

// Pushes in a random order, with waits on vars already written and main-thread calls between.
std::vector<dag::Action> random_main(Draw& d, const dag::Program& p, dag::CommId comms) {
  std::vector<dag::OpId> order(p.ops.size());
  for (dag::OpId op = 0; op < order.size(); ++op) order[op] = op;
  std::shuffle(order.begin(), order.end(), d.engine());
  std::vector<dag::Action> main;
  std::vector<dag::VarId> written;
  for (const dag::OpId op : order) {
    main.emplace_back(dag::PushAction{op});
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

// Rank 1's variant: a collective op dropped (its push removed, later ops renumbered), or the
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
    if (auto* push = std::get_if<dag::PushAction>(&action)) {
      if (push->op == drop) continue;
      if (push->op > drop) --push->op;
    }
    main.push_back(action);
  }
  p.main = std::move(main);
  // A wait on a var only the dropped op wrote would wait for nothing: the validator refuses it.
  std::vector<bool> written(p.vars.size(), false);
  std::vector<dag::Action> kept;
  for (const dag::Action& action : p.main) {
    if (const auto* push = std::get_if<dag::PushAction>(&action)) {
      for (const dag::VarId v : p.ops[push->op].writes) written[v] = true;
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

}  // namespace ordo::checker::testing
