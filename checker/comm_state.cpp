#include "checker/comm_state.hpp"

#include <algorithm>
#include <utility>

namespace ordo::checker {

IssueResult issue(CommState& state, dag::CommId comm, const std::string& comm_name,
                  std::size_t member, CallRecord call) {
  const std::uint64_t seq = state.next_seq.at(member)++;
  for (std::uint64_t other : state.in_flight[member]) {
    const CallRecord& first = state.slots.at(other).at(member)->call;
    if (first.blocking || call.blocking) {
      return Violation{ThreadRuleBreak{comm, comm_name, first, std::move(call)}};
    }
  }
  auto& slot = state.slots[seq];
  if (slot.empty()) slot.resize(state.next_seq.size());
  const auto first = std::find_if(slot.begin(), slot.end(), [](const auto& p) { return p; });
  if (first != slot.end() && !((*first)->call.collective == call.collective)) {
    Mismatch m{comm, comm_name, seq, {}};
    for (const auto& p : slot) {
      if (p) m.calls.push_back(p->call);
    }
    m.calls.push_back(std::move(call));
    return Violation{std::move(m)};
  }
  slot[member] = Posted{std::move(call)};
  state.in_flight[member].push_back(seq);
  if (std::any_of(slot.begin(), slot.end(), [](const auto& p) { return !p; })) return Pending{};
  Matched matched;
  for (std::size_t m = 0; m < slot.size(); ++m) {
    auto& flight = state.in_flight[m];
    flight.erase(std::find(flight.begin(), flight.end(), seq));
    matched.issuers.push_back(slot[m]->call.issuer);
  }
  state.slots.erase(seq);
  return matched;
}

std::optional<std::uint64_t> seq_of(const CommState& state, const Issuer& issuer) {
  for (const auto& [seq, slot] : state.slots) {
    for (const auto& p : slot) {
      if (p && p->call.issuer == issuer) return seq;
    }
  }
  return std::nullopt;
}

std::vector<std::size_t> missing_members(const CommState& state, std::uint64_t seq) {
  std::vector<std::size_t> missing;
  const auto it = state.slots.find(seq);
  if (it == state.slots.end()) return missing;
  for (std::size_t m = 0; m < it->second.size(); ++m) {
    if (!it->second[m]) missing.push_back(m);
  }
  return missing;
}

}  // namespace ordo::checker
