// The key a search stores for a state, in the compact form SPIN calls collapse compression: each
// rank's encoding is kept once in a table of pieces, and a state's key names its ranks by their
// pieces' numbers, and its communicators by a number in a table of their own. With symmetry, a
// rank is named by its piece's number and the number of its view of the communicators, the
// ranks' pairs are sorted, and the communicators are named by their slots' sequence numbers (as
// encode_up_to_rank_renaming splits them). Two keys are equal exactly when the plain encodings are
// (encode, encode_up_to_rank_renaming), since a number is equal exactly for equal bytes in its
// table, the parts are self-delimiting and numbers are written prefix-free. So the search stays
// exact while a key shrinks from the whole job's bytes to a byte or a few per rank, short enough
// for the visited set to keep in its table; and a transition that wrote one rank has its key made
// from its parent's by redoing that rank's part only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/search/visited_set.hpp"
#include "checker/system/state.hpp"
#include "checker/system/system.hpp"

namespace ordo::checker {

class StateKeys {
 public:
  // What a state's key is made of.
  struct Parts {
    std::vector<VisitedSet::Place> ranks;  // per rank, in rank order: its piece
    std::vector<VisitedSet::Place> views;  // with symmetry: per rank, its view of the comms
    VisitedSet::Place comms = 0;
  };

  // symmetry: keys equal up to a renaming of ranks, when model.ranks_interchangeable().
  StateKeys(const System& model, bool symmetry);
  StateKeys(const StateKeys&) = delete;
  StateKeys& operator=(const StateKeys&) = delete;

  // The state's key, and its parts in `parts`; the view lasts until the next call.
  std::string_view key(const State& state, Parts& parts);
  std::string_view key(const State& state) { return key(state, scratch_); }
  // The same for a state that shares every part but `rank`'s with the state `parent` was made
  // for (State::wrote_only): only that rank's part is made again.
  std::string_view key_after(const State& state, dag::Rank rank, const Parts& parent, Parts& parts);
  // The key of a state whose parts are `parent`'s with `rank`'s piece replaced by `piece` (a
  // successor the search knows by its piece); the view lasts until the next call.
  std::string_view key_ahead(dag::Rank rank, VisitedSet::Place piece, const Parts& parent);
  // Reads back a sample of the communicators' encodings (the rank pieces are read back each
  // time one is new); every key made from a state does this, and a key made ahead is not.
  void sample_comm_check(const State& state);

 private:
  VisitedSet::Place piece(const State& state, dag::Rank rank);
  VisitedSet::Place views_number(const State& state, dag::Rank rank);
  VisitedSet::Place comms_number(const State& state);
  // The key of `parts`, with `replaced`'s piece taken as `piece` (no rank is, by default).
  std::string_view assemble(const Parts& parts, dag::Rank replaced = no_rank,
                            VisitedSet::Place piece = 0);
  static constexpr dag::Rank no_rank = ~dag::Rank{0};

  const System& model_;
  bool symmetric_;
  std::uint64_t table_id_;       // names pieces_ in the ranks' caches
  VisitedSet pieces_{true};      // rank encodings
  VisitedSet views_{true};       // with symmetry: a rank's views of the comms
  VisitedSet comm_parts_{true};  // the comms' parts (their slots' sequence numbers, with symmetry)
  std::string out_;
  std::string part_;
  std::vector<std::pair<VisitedSet::Place, VisitedSet::Place>> sorted_;
  Parts scratch_;
  static constexpr std::uint64_t comm_check_mask = 1023;
  std::uint64_t keys_made_ = 0;
  std::string comm_bytes_;
};

}  // namespace ordo::checker
