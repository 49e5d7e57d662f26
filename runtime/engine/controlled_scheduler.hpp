// A scheduler without threads: a driver (a test, the checker's counterexample replay) takes every
// decision. Start runs the op's function synchronously on the driver's thread; a sync op then
// holds its pool thread until the driver completes it, which it may do at any later decision, as
// any running op may finish at any moment. Waits and full-engine submissions never block: they
// throw WouldBlock. The same submissions and the same decisions give the same trace and the same
// effects. One driver thread; completion handles may still be invoked from any thread.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "runtime/engine/core.hpp"
#include "runtime/engine/decision.hpp"
#include "runtime/engine/scheduler.hpp"

namespace ordo::engine {

class ControlledScheduler final : public Scheduler {
 public:
  // Every decision legal now: for each pool with a ready op and a free thread, Start of its next
  // op on the lowest free thread (pool order); then Issue of each claimed op whose body has not
  // run (claim order); then Complete of each running op whose completion can be applied (start
  // order).
  std::vector<Decision> legal_decisions() const;
  // Applies one decision or throws ScheduleError saying why it is illegal; state is unchanged then.
  void apply(const Decision& decision);
  // The decisions applied so far, with Start's thread always filled in.
  const std::vector<Decision>& trace() const { return trace_; }
  // "start 'b' on pool 'io' thread 0", for logs and reports.
  std::string describe(const Decision& decision) const;
  // One line per started op not completed yet, in start order, e.g. "'ar' running on pool 'comm'
  // thread 0 (async, waiting for its completion handle)".
  std::vector<std::string> running_ops() const;

  void attach(EngineCore& core) override;
  void on_ready(std::span<const OpHandle> ready) override;
  void on_progress() override;
  void on_async_signal(Lock& lock, OpHandle op, std::exception_ptr error) override;
  void wait(Lock& lock, const std::function<bool()>& done, const std::string& what,
            const WaitNeeds& needs) override;
  void drain() override;

 private:
  struct Running {
    OpHandle op;
    bool async = false;
    bool completable = false;    // sync: always; async: once its handle fired
    std::exception_ptr error;    // what the function threw, or what the handle carried
    std::optional<Claim> unrun;  // claimed, its body waiting for an Issue decision
  };

  void start(Lock& lock, const Start& decision);
  void issue(Lock& lock, const Issue& decision);
  void run_body(Lock& lock, Claim& claim);
  void complete(const Complete& decision);
  std::uint32_t check_start(const Start& decision) const;
  std::string op_name(OpHandle op) const;
  std::string pool_name(dag::PoolId pool) const;
  std::string why_not_running(OpHandle op) const;
  Running* find_running(OpHandle op);
  Running& running_of(OpHandle op);

  EngineCore* core_ = nullptr;
  // Under the core mutex: the started ops not completed yet, in start order.
  std::vector<Running> running_;
  std::vector<Decision> trace_;
};

}  // namespace ordo::engine
