// The key a search stores for a state, in the compact form SPIN calls collapse compression: each
// rank's encoding is kept once in a table of pieces, and a state's key names its ranks by where
// their encodings are kept. Two keys are equal exactly when the plain encodings are
// (encode, encode_up_to_rank_renaming), since a piece's place is equal exactly for equal bytes
// and places are written prefix-free; so the search stays exact while a key shrinks from the
// whole job's bytes to a few per rank, and a transition re-encodes only the rank it wrote.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "checker/search/visited_set.hpp"
#include "checker/system/model.hpp"
#include "checker/system/state.hpp"

namespace ordo::checker {

class StateKeys {
 public:
  // symmetry: keys equal up to a renaming of ranks, when model.ranks_interchangeable().
  StateKeys(const Model& model, bool symmetry);
  StateKeys(const StateKeys&) = delete;
  StateKeys& operator=(const StateKeys&) = delete;

  // The state's key; the view lasts until the next call.
  std::string_view key(const State& state);

 private:
  VisitedSet::Place piece(const State& state, dag::Rank rank);

  const Model& model_;
  bool symmetric_;
  std::uint64_t table_id_;  // names pieces_ in the ranks' caches
  VisitedSet pieces_;
  std::string out_;
  std::vector<std::string> rank_keys_;
  static constexpr std::uint64_t comm_check_mask = 1023;
  std::uint64_t keys_made_ = 0;
  std::string comm_bytes_;
};

}  // namespace ordo::checker
