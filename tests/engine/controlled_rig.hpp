// A controlled engine plus a log of which op functions ran, so tests can assert the semantics one
// decision at a time.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/engine/controlled_scheduler.hpp"
#include "runtime/engine/engine.hpp"

namespace ordo::engine::testing {

std::vector<dag::Pool> one_pool(std::uint32_t threads = 1,
                                dag::PoolKind kind = dag::PoolKind::fifo);

dag::Collective collective(dag::CollectiveKind kind, dag::CommId comm, std::int64_t key = 0,
                           std::uint64_t count = 0);

class ControlledRig {
 public:
  explicit ControlledRig(std::vector<dag::Pool> pools = one_pool(), Limits limits = {},
                         bool record = false)
      : ControlledRig(std::make_unique<ControlledScheduler>(), std::move(pools), limits, record) {}

  VarHandle var(const std::string& name);
  // Submits a sync op whose function appends its name to log().
  OpHandle op(const std::string& name, std::vector<VarHandle> reads, std::vector<VarHandle> writes,
              dag::PoolId pool = 0, std::int32_t priority = 0);
  // Submits a sync op whose function throws std::runtime_error(message).
  OpHandle failing_op(const std::string& name, const std::string& message,
                      std::vector<VarHandle> reads, std::vector<VarHandle> writes);

  bool startable(OpHandle op) const;
  bool completable(OpHandle op) const;
  // Claims the op and runs its function: for a collective op, whose function is a transition of
  // its own (docs/semantics.md, S3), that is a Start and then an Issue.
  void start(OpHandle op, dag::PoolId pool = 0) {
    claim(op, pool);
    if (issuable(op)) issue(op);
  }
  void claim(OpHandle op, dag::PoolId pool = 0) { scheduler.apply(Start{pool, op, std::nullopt}); }
  void issue(OpHandle op) { scheduler.apply(Issue{op}); }
  bool issuable(OpHandle op) const;
  void complete(OpHandle op) { scheduler.apply(Complete{op}); }
  void run(OpHandle op, dag::PoolId pool = 0) {
    start(op, pool);
    complete(op);
  }
  // Takes the first legal decision until none is left; returns how many were taken.
  std::size_t run_all();

  const std::vector<std::string>& log() const { return *log_; }

  ControlledScheduler& scheduler;
  Engine engine;

 private:
  ControlledRig(std::unique_ptr<ControlledScheduler> owned, std::vector<dag::Pool> pools,
                Limits limits, bool record);

  std::shared_ptr<std::vector<std::string>> log_ = std::make_shared<std::vector<std::string>>();
};

// The text of the exception `call` throws as E; fails the test when it throws nothing or else.
template <typename E, typename Call>
std::string message_of(Call&& call) {
  try {
    call();
  } catch (const E& error) {
    return error.what();
  }
  return "<no exception>";
}

}  // namespace ordo::engine::testing
