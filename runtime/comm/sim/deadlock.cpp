// Deadlock detection of the simulated world: a stable state in which every rank is blocked. The
// check runs under the world's lock, so no call can match meanwhile; a rank's probe vouches that
// nothing it runs can move by itself; and no matched call may still be on its way to its issuer.
// Together that makes the state permanent, so a reported deadlock is never a slow run.
#include <string>

#include "runtime/comm/rules/call.hpp"
#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/comm/sim/world_state.hpp"

namespace ordo::comm::sim {

void SimWorld::set_probe(dag::Rank rank, ActivityProbe probe) {
  std::lock_guard lock(mutex_);
  probes_.at(rank) = std::move(probe);
}

void SimWorld::start_watchdog(std::chrono::milliseconds period) {
  std::lock_guard lock(mutex_);
  if (watchdog_.joinable()) throw std::logic_error("the watchdog is already running");
  watchdog_ = std::thread([this, period] { watchdog_loop(period); });
}

void SimWorld::watchdog_loop(std::chrono::milliseconds period) {
  std::unique_lock lock(mutex_);
  while (!watchdog_stop_ && !violation_) {
    watchdog_wake_.wait_for(lock, period);
    if (watchdog_stop_ || violation_) break;
    if (std::optional<Deadlock> found = deadlock_locked()) {
      Deliveries deliveries;
      abort_locked(*found, deliveries);
      deliveries_pending_ += deliveries.size();
      lock.unlock();
      deliver(deliveries);
      return;
    }
  }
}

std::optional<Deadlock> SimWorld::check_deadlock() {
  Deliveries deliveries;
  std::optional<Deadlock> found;
  {
    std::lock_guard lock(mutex_);
    found = deadlock_locked();
    if (found) {
      abort_locked(*found, deliveries);
      deliveries_pending_ += deliveries.size();
    }
  }
  deliver(deliveries);
  return found;
}

std::optional<Deadlock> SimWorld::deadlock_locked() {
  if (violation_ || deliveries_pending_ > 0) return std::nullopt;
  std::vector<RankAccount> ranks;
  bool all_finished = true;
  for (dag::Rank r = 0; r < ranks_; ++r) {
    if (!probes_[r]) return std::nullopt;
    RankActivity activity = probes_[r]();
    if (!activity.quiescent) return std::nullopt;
    all_finished = all_finished && activity.finished;
    ranks.push_back(RankAccount{r, activity.finished, std::move(activity.main), {}});
  }
  bool calls_pending = false;
  for (const auto& comm : comms_) {
    calls_pending = calls_pending || !comm->match.slots().empty() || !comm->match.peers().empty();
  }
  if (all_finished && !calls_pending && held_.empty()) return std::nullopt;
  return describe_locked(std::move(ranks));
}

Deadlock SimWorld::describe_deadlock(std::vector<RankAccount> ranks) {
  std::lock_guard lock(mutex_);
  return describe_locked(std::move(ranks));
}

Deadlock SimWorld::describe_locked(std::vector<RankAccount> ranks) {
  std::vector<CommView> comms;
  for (const auto& comm : comms_)
    comms.push_back(CommView{&comm->name, &comm->members, &comm->match});
  Streams streams(*this);
  return comm::describe_deadlock(std::move(ranks), comms,
                                 stream_ordered(backend_) ? &streams : nullptr,
                                 [this](dag::Rank, std::uint64_t tag) {
                                   const auto it = launched_by_.find(tag);
                                   return it != launched_by_.end() ? it->second : std::string("?");
                                 });
}

}  // namespace ordo::comm::sim
