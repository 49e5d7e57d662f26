// One communicator's matching state, as the simulated world keeps it (runtime/comm/sim): per
// member the sequence number of its next call and its calls in flight (issued, not yet matched by
// every member), and per sequence number the calls present so far. Issuing applies the same
// checks in the same order as the world: the thread rule first, then agreement with the calls
// already present at that sequence number.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "checker/violation.hpp"

namespace ordo::checker {

struct Posted {
  CallRecord call;
};

struct CommState {
  std::vector<std::uint64_t> next_seq;                  // per member
  std::vector<std::vector<std::uint64_t>> in_flight;    // per member, in issue order
  std::map<std::uint64_t, std::vector<std::optional<Posted>>> slots;  // partly issued calls

  explicit CommState(std::size_t members) : next_seq(members, 0), in_flight(members) {}
};

// Still waiting for some members.
struct Pending {};
// Every member issued: the issuers whose calls complete now, in communicator-rank order.
struct Matched {
  std::vector<Issuer> issuers;
};
using IssueResult = std::variant<Pending, Matched, Violation>;

// Member `member` of communicator `comm` (named `comm_name`) issues `call`.
IssueResult issue(CommState& state, dag::CommId comm, const std::string& comm_name,
                  std::size_t member, CallRecord call);

// The sequence number of the unmatched call of `issuer` on this communicator, if any.
std::optional<std::uint64_t> seq_of(const CommState& state, const Issuer& issuer);
// The communicator ranks that have not issued the seq-th call yet.
std::vector<std::size_t> missing_members(const CommState& state, std::uint64_t seq);

}  // namespace ordo::checker
