#include "runtime/comm/rules/match_state.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <string>
#include <utility>

#include "runtime/comm/rules/completion.hpp"

namespace ordo::comm {

MatchState::MatchState(dag::CommId comm, std::size_t members)
    : comm_(comm), next_seq_(members, 0), in_flight_(members), peers_(members) {
  if (members == 0) throw std::invalid_argument("a communicator has at least one member");
}

IssueResult MatchState::issue(std::size_t member, IssuedCall call, std::uint64_t tag,
                              std::string_view comm_name) {
  assert(member < members());
  assert(!dag::is_point_to_point(call.call.kind) && "a send or recv is posted to peers()");
  const std::uint64_t seq = next_seq_[member];
  // Only a blocking call in flight forbids another issue: its issuer is still inside the call, so
  // no other thread of the member can have ordered a call after it. A non-blocking call has
  // returned once issued; a later call, blocking or not, is ordered after it and takes the next
  // sequence number (MPI-3.1 section 5.12 lets a blocking collective be posted while a
  // non-blocking one is outstanding); whether the ranks agree on that order is C2's to judge.
  // A call its issuer returned from early holds no thread (C4).
  for (std::uint64_t other : in_flight_[member]) {
    const Posted& posted = *slots_.at(other).at(member);
    const IssuedCall& first = posted.call;
    if (first.blocking && !posted.returned) {
      return Violation{ThreadRuleBreak{comm_, std::string(comm_name), first, std::move(call)}};
    }
  }
  const auto found = slots_.find(seq);
  if (found != slots_.end()) {
    const Slot& slot = found->second;
    const auto first = std::find_if(slot.begin(), slot.end(), [](const auto& p) { return p; });
    assert(first != slot.end() && "a slot exists only while some member's call is in it");
    if (!matches((*first)->call.call, (*first)->call.blocking, call.call, call.blocking)) {
      Mismatch m{comm_, std::string(comm_name), seq, {}};
      for (const auto& p : slot) {
        if (p) m.calls.push_back(p->call);
      }
      m.calls.push_back(std::move(call));
      return Violation{std::move(m)};
    }
  }
  ++next_seq_[member];
  Slot& slot = slots_[seq];
  if (slot.empty()) slot.resize(members());
  assert(!slot[member] && "a member issues each sequence number once");
  slot[member] = Posted{std::move(call), tag};
  if (std::any_of(slot.begin(), slot.end(), [](const auto& p) { return !p; })) {
    in_flight_[member].push_back(seq);
    Pending pending{seq, {}};
    if (may_return(member, seq)) pending.may_return.push_back({member, slot[member]->tag});
    // Short of the match, only a root's issue can meet other members' needs (its non-roots'),
    // and a scan member's (those of the members after it).
    const Call& issued = slot[member]->call.call;
    const bool root = issued.root && *issued.root == member;
    const bool prefix = completion_needs(issued, member) == CompletionNeeds::prefix;
    if (root || prefix) {
      for (std::size_t m = 0; m < slot.size(); ++m) {
        if (m == member || !slot[m]) continue;
        const CompletionNeeds needs = completion_needs(slot[m]->call.call, m);
        const bool met_now = (root && needs == CompletionNeeds::root) ||
                             (prefix && needs == CompletionNeeds::prefix && m > member);
        if (met_now && may_return(m, seq)) pending.may_return.push_back({m, slot[m]->tag});
      }
    }
    return pending;
  }
  Matched matched{seq, {}, {}};
  for (std::size_t m = 0; m < slot.size(); ++m) {
    auto& flight = in_flight_[m];
    const auto it = std::find(flight.begin(), flight.end(), seq);
    if (it != flight.end()) flight.erase(it);
    matched.tags.push_back(slot[m]->tag);
    matched.returned.push_back(slot[m]->returned);
  }
  slots_.erase(seq);
  return matched;
}

std::optional<std::uint64_t> MatchState::seq_of(std::size_t member, std::uint64_t tag) const {
  for (std::uint64_t seq : in_flight_.at(member)) {
    const std::optional<Posted>& p = slots_.at(seq).at(member);
    if (p && p->tag == tag && !p->returned) return seq;
  }
  return std::nullopt;
}

std::vector<std::size_t> MatchState::missing_members(std::uint64_t seq) const {
  std::vector<std::size_t> missing;
  const auto it = slots_.find(seq);
  if (it == slots_.end()) return missing;
  for (std::size_t m = 0; m < it->second.size(); ++m) {
    if (!it->second[m]) missing.push_back(m);
  }
  return missing;
}

bool MatchState::may_return(std::size_t member, std::uint64_t seq) const {
  const auto it = slots_.find(seq);
  if (it == slots_.end()) return false;
  const Slot& slot = it->second;
  const std::optional<Posted>& mine = slot.at(member);
  if (!mine || mine->returned) return false;
  return needs_met(mine->call.call, member, slot.size(),
                   [&](std::size_t m) { return slot[m].has_value(); });
}

void MatchState::mark_returned(std::size_t member, std::uint64_t seq) {
  if (!may_return(member, seq)) {
    throw std::logic_error("a call returns early only once the members it needs have issued");
  }
  slots_.at(seq).at(member)->returned = true;
}

void MatchState::clear() {
  slots_.clear();
  peers_.clear();
  for (auto& flight : in_flight_) flight.clear();
}

}  // namespace ordo::comm
