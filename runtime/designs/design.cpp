#include "runtime/designs/design.hpp"

#include <cassert>
#include <stdexcept>

#include "runtime/designs/makers.hpp"

namespace ordo::designs {

namespace {
constexpr double update_us_per_mib = 50.0;  // an estimate of an SGD update's memory traffic
}

double update_cost_us(const KeyVars& k) {
  const double mib = static_cast<double>(k.count * dag::dtype_bytes(k.dtype)) / (1 << 20);
  return update_us_per_mib * mib;
}

Design::Design(const DesignConfig& config, dag::ProgramSink& main, dag::Rank rank)
    : config_(config), main_(main), rank_(rank) {
  check_config(config_);
}

std::unique_ptr<Design> Design::create(const DesignConfig& config, dag::ProgramSink& main,
                                       dag::Rank rank) {
  check_config(config);
  switch (config.kind) {
    case DesignKind::naive:
      return make_naive(config, main, rank);
    case DesignKind::funnel:
      return make_funnel(config, main, rank);
    case DesignKind::concom:
      return make_concom(config, main, rank);
    case DesignKind::depcha:
      return make_depcha(config, main, rank);
    case DesignKind::fused:
      return make_fused(config, main, rank);
    case DesignKind::nonblocking:
      return make_nonblocking(config, main, rank);
    case DesignKind::sharded:
      return make_sharded(config, main, rank);
    case DesignKind::hierarchical:
      return make_hierarchical(config, main, rank);
    case DesignKind::priority:
      return make_priority(config, main, rank);
  }
  throw std::invalid_argument("unknown design kind");
}

dag::VarId Design::add_token(const std::string& name) {
  return main_.add_var(dag::Var{name, dag::VarKind::token, 0, dag::DType::u8});
}

void Design::submit_copy(const std::string& name, dag::VarId from, dag::VarId to) {
  dag::Op op;
  op.name = name;
  op.kind = dag::OpKind::copy;
  op.pool = copy_pool;
  op.reads = {from};
  op.writes = {to};
  op.cost_us = 0.0;
  main_.submit(op);
}

void Design::submit_fence(const std::string& name, dag::VarId var) {
  dag::Op op;
  op.name = name;
  op.kind = dag::OpKind::compute;
  // The copy pool, idle in place, rather than behind the backward ops on the compute pool.
  op.pool = copy_pool;
  op.writes = {var};
  op.cost_us = 0.0;
  main_.submit(op);
}

bool Design::in_place(const KeyVars& k) const {
  const bool same = k.buf == k.grad;
  if (same != (config_.buffers == BufferMode::in_place)) {
    throw std::logic_error(
        "key '" + k.name + "' has " + (same ? "no buffer of its own" : "a buffer") +
        " but the design's buffers are " + std::string(to_string(config_.buffers)));
  }
  return same;
}

void Design::push_into_buffer(const KeyVars& k, bool main_waits) {
  if (!in_place(k)) {
    submit_copy(op_name("push", k), k.grad, k.buf);
  } else if (main_waits) {
    submit_fence(op_name("fence", k), k.buf);
  }
}

void Design::pull(const KeyVars& k) {
  if (k.buf != k.grad) submit_copy(op_name("pull", k), k.buf, k.grad);
}

dag::Collective Design::allreduce(const KeyVars& k, dag::CommId comm) const {
  return dag::Collective{dag::CollectiveKind::allreduce,
                         comm,
                         k.key,
                         k.count,
                         k.dtype,
                         dag::Reduction::sum,
                         std::nullopt};
}

dag::Op Design::collective_op(const std::string& name, const dag::Collective& c,
                              std::vector<dag::VarId> reads, std::vector<dag::VarId> writes) const {
  dag::Op op;
  op.name = name;
  op.kind = dag::OpKind::collective;
  op.pool = comm_pool;
  op.reads = std::move(reads);
  op.writes = std::move(writes);
  op.collective = c;
  return op;
}

void Design::init(const KeyVars& k) {
  const dag::Collective bcast{dag::CollectiveKind::bcast, world_comm,  k.key, k.count, k.dtype,
                              dag::Reduction::none,       dag::Rank{0}};
  if (config_.init == InitKind::fig4) {
    // Fig. 4 as printed: the broadcast declares the weight as a read and writes nothing, so
    // broadcasts of different keys are unordered and a pool with several threads may start them
    // in a different order on each rank.
    main_.submit(collective_op(op_name("init", k), bcast, {k.weight}, {}));
    return;
  }
  if (!init_chain_) init_chain_ = add_token("init.chain");
  main_.submit(collective_op(op_name("init", k), bcast, {}, {k.weight, *init_chain_}));
}

void Design::barrier() {
  main_.collective(
      dag::CollectiveAction{dag::Collective{dag::CollectiveKind::barrier, world_comm, -1, 0,
                                            dag::DType::f32, dag::Reduction::none, std::nullopt},
                            std::nullopt});
}

}  // namespace ordo::designs
