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
  std::vector<RankActivity> activity;
  bool all_finished = true;
  for (const ActivityProbe& probe : probes_) {
    if (!probe) return std::nullopt;
    activity.push_back(probe());
    if (!activity.back().quiescent) return std::nullopt;
    all_finished = all_finished && activity.back().finished;
  }
  const std::vector<std::string> pending = pending_calls_locked();
  if (all_finished && pending.empty() && held_.empty()) return std::nullopt;
  Deadlock deadlock;
  for (dag::Rank r = 0; r < ranks_; ++r) {
    if (activity[r].finished) deadlock.waits.push_back("rank " + std::to_string(r) + ": finished");
    if (!activity[r].finished) deadlock.ranks_blocked.push_back(r);
    for (const std::string& w : activity[r].waits) {
      deadlock.waits.push_back("rank " + std::to_string(r) + ": " + w);
    }
  }
  for (const std::string& p : pending) deadlock.waits.push_back(p);
  for (const std::string& s : stream_lines_locked()) deadlock.waits.push_back(s);
  return deadlock;
}

std::vector<std::string> SimWorld::pending_calls() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> lines = pending_calls_locked();
  for (std::string& s : stream_lines_locked()) lines.push_back(std::move(s));
  return lines;
}

std::vector<std::string> SimWorld::pending_calls_locked() const {
  std::vector<std::string> lines;
  for (const auto& comm : comms_) {
    for (const auto& [seq, slot] : comm->match.slots()) {
      std::string missing;
      for (std::size_t m : comm->match.missing_members(seq)) {
        missing += (missing.empty() ? "" : ", ") + std::to_string(comm->members[m]);
      }
      for (const auto& p : slot) {
        if (!p) continue;
        lines.push_back("rank " + std::to_string(p->call.issuer.rank) + " (" + p->call.issuer.name +
                        "): in " + describe(p->call.call, comm->name) + ", call " +
                        std::to_string(seq) + ", waiting for rank(s) " + missing);
      }
    }
  }
  return lines;
}

}  // namespace ordo::comm::sim
