// Release-build checks that the encodings the searches store are injective: each part is read
// back from its bytes and compared, field by field, with the state it was made from. The searches
// call them on a sample of the encodings they store (search/state_keys.cpp), so a field added to
// a state but written ambiguously, or a count that disagrees with what follows it, stops the
// search with std::logic_error instead of merging two states and calling a job safe unseen.
#pragma once

#include <string_view>

#include "checker/system/state.hpp"
#include "runtime/comm/rules/match_state.hpp"

namespace ordo::checker {

// Throws std::logic_error unless `bytes` reads back as exactly r's encoded fields.
void check_rank_encoding(const RankState& r, std::string_view bytes);
// The same for one communicator's part (put_comm).
void check_comm_encoding(const comm::MatchState& c, std::string_view bytes);

}  // namespace ordo::checker
