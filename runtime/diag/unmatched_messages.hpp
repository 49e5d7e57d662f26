// The sends and recvs that wait for a side their peer never issued, found in one communicator's
// dumps by the counts of the ranks' streams (analysis.hpp, Unmatched, says the rule).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runtime/diag/analysis.hpp"

namespace ordo::diag {

// `dumps` holds, by world rank, each member's view of the communicator; a member that left no
// dump is absent. `members` are world ranks in communicator-rank order; absent: every rank.
std::vector<Unmatched> unmatched_messages(dag::CommId id, const std::string& name,
                                          const std::optional<std::vector<dag::Rank>>& members,
                                          const std::map<dag::Rank, const DumpComm*>& dumps);

}  // namespace ordo::diag
