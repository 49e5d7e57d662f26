#include "tests/engine/controlled_rig.hpp"

#include <algorithm>
#include <stdexcept>

namespace ordo::engine::testing {

std::vector<dag::Pool> one_pool(std::uint32_t threads, dag::PoolKind kind) {
  return {dag::Pool{"cpu", threads, kind}};
}

dag::Collective collective(dag::CollectiveKind kind, dag::CommId comm, std::int64_t key,
                           std::uint64_t count) {
  dag::Collective made;
  made.kind = kind;
  made.comm = comm;
  made.key = key;
  made.count = count;
  return made;
}

ControlledRig::ControlledRig(std::unique_ptr<ControlledScheduler> owned,
                             std::vector<dag::Pool> pools, Limits limits, bool record)
    : scheduler(*owned),
      engine(EngineConfig{std::move(pools), limits, record, "step"}, std::move(owned)) {}

VarHandle ControlledRig::var(const std::string& name) {
  return engine.new_var(dag::Var{name, dag::VarKind::tensor, 4, dag::DType::f32});
}

OpHandle ControlledRig::op(const std::string& name, std::vector<VarHandle> reads,
                           std::vector<VarHandle> writes, dag::PoolId pool, std::int32_t priority) {
  OpDesc desc{name, std::move(reads), std::move(writes), pool, priority};
  return engine.submit(desc, [log = log_, name] { log->push_back(name); });
}

OpHandle ControlledRig::failing_op(const std::string& name, const std::string& message,
                                   std::vector<VarHandle> reads, std::vector<VarHandle> writes) {
  OpDesc desc{name, std::move(reads), std::move(writes)};
  return engine.submit(desc, [log = log_, name, message] {
    log->push_back(name);
    throw std::runtime_error(message);
  });
}

bool ControlledRig::startable(OpHandle op) const {
  const std::vector<Decision> legal = scheduler.legal_decisions();
  return std::any_of(legal.begin(), legal.end(), [&](const Decision& decision) {
    const Start* start_decision = std::get_if<Start>(&decision);
    return start_decision != nullptr && start_decision->op == op;
  });
}

bool ControlledRig::issuable(OpHandle op) const {
  const std::vector<Decision> legal = scheduler.legal_decisions();
  return std::find(legal.begin(), legal.end(), Decision{Issue{op}}) != legal.end();
}

bool ControlledRig::completable(OpHandle op) const {
  const std::vector<Decision> legal = scheduler.legal_decisions();
  return std::find(legal.begin(), legal.end(), Decision{Complete{op}}) != legal.end();
}

std::size_t ControlledRig::run_all() {
  std::size_t decisions = 0;
  for (std::vector<Decision> legal = scheduler.legal_decisions(); !legal.empty();
       legal = scheduler.legal_decisions()) {
    scheduler.apply(legal.front());
    ++decisions;
  }
  return decisions;
}

}  // namespace ordo::engine::testing
