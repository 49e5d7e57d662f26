// Calls that return before their match (docs/semantics.md, C4): the simulated world's side of the
// rule the checker explores. Which calls may is the matching state's to say (Pending::may_return);
// the policy says whether they do, and what such a call receives is what its needs let it have
// (comm::sim::move_early: a bcast or scatter non-root, the root's data; a scan member, the
// reduction of the members before it and its own).
#include <algorithm>
#include <cassert>
#include <stdexcept>

#include "runtime/comm/rules/completion.hpp"
#include "runtime/comm/sim/data_moves.hpp"
#include "runtime/comm/sim/sim_world.hpp"
#include "runtime/comm/sim/world_state.hpp"
#include "runtime/random/split_mix64.hpp"

namespace ordo::comm::sim {

std::string describe(const ReturnPolicy& policy) {
  switch (policy.when) {
    case Returns::at_match:
      return "calls return at their match";
    case Returns::early:
      return policy.seed == 0 ? "calls return as early as the standard allows"
                              : "calls return early or at their match, drawn from seed " +
                                    std::to_string(policy.seed);
    case Returns::held:
      return "calls return early when the driver says";
  }
  return "?";
}

void SimWorld::offer_returns_locked(CommState& comm, const Pending& pending, Deliveries& out) {
  if (returns_.when == Returns::at_match || !may_complete_early(backend_)) return;
  for (const MayReturn& may : pending.may_return) {
    if (returns_.when == Returns::held) {
      const Delivery& d = comm.deliveries.at(may.tag);
      held_returns_.push_back(Held{d.rank, d.issuer, comm.id, may.member, may.tag});
      continue;
    }
    // One draw per call, fixed by the seed and the call's tag (its place in the world's order).
    if (returns_.seed != 0 && (random::SplitMix64(returns_.seed ^ may.tag).next() & 1u) == 0) {
      continue;
    }
    return_locked(comm, may.member, may.tag, out);
  }
}

void SimWorld::return_locked(CommState& comm, std::size_t member, std::uint64_t tag,
                             Deliveries& out) {
  Delivery& d = comm.deliveries.at(tag);
  if (dag::is_point_to_point(d.call.kind)) {        // a send returns before its recv (M5): it
    comm.match.peers().mark_returned(member, tag);  // receives nothing
    out.emplace_back(std::move(d.done), nullptr);
    d.done = nullptr;
    return;
  }
  const std::optional<std::uint64_t> seq = comm.match.seq_of(member, tag);
  assert(seq && d.done);
  comm.match.mark_returned(member, *seq);
  // What it receives now comes from the members it needs, which have issued (C4).
  const MatchState::Slot& slot = comm.match.slots().at(*seq);
  std::vector<MemberData> data(slot.size());
  for (std::size_t m = 0; m < slot.size(); ++m) {
    if (!slot[m]) continue;
    const Delivery& from = comm.deliveries.at(slot[m]->tag);
    data[m].sent = from.sent ? from.sent->data() : static_cast<const std::byte*>(from.buffer);
  }
  data[member].into = static_cast<std::byte*>(d.buffer);
  move_early(d.call, member, data);
  out.emplace_back(std::move(d.done), nullptr);
  d.done = nullptr;
}

std::vector<HeldReturn> SimWorld::held_returns(dag::Rank rank) const {
  std::lock_guard lock(mutex_);
  std::vector<HeldReturn> held;
  for (const Held& h : held_returns_) {
    if (h.rank == rank) held.push_back(HeldReturn{h.comm, h.issuer});
  }
  return held;
}

void SimWorld::return_now(dag::Rank rank, const std::string& issuer) {
  Deliveries deliveries;
  {
    std::lock_guard lock(mutex_);
    const auto it = std::find_if(held_returns_.begin(), held_returns_.end(), [&](const Held& h) {
      return h.rank == rank && h.issuer == issuer;
    });
    if (it == held_returns_.end() || violation_) {
      throw std::logic_error("rank " + std::to_string(rank) + ": '" + issuer +
                             "' holds no call that may return now");
    }
    const Held held = *it;
    held_returns_.erase(it);
    return_locked(*comms_.at(held.comm), held.member, held.tag, deliveries);
    deliveries_pending_ += deliveries.size();
  }
  deliver(deliveries);
}

}  // namespace ordo::comm::sim
