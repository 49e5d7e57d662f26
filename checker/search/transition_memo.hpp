// Successors of rank-local transitions, kept by the rank's piece (its encoding's number in the
// search's table of pieces, search/state_keys.hpp). A rank-local transition (one that writes its
// own rank and nothing else: a main-thread submit or wait, the claim of an op that issues no call,
// a completion) reads only its rank's part, and two parts with one piece have one future up to the
// naming of a pool's threads (system/encoding.hpp): so the successor's piece is a function of the
// rank, the piece and the transition, and any part with that piece may stand for the successor.
// A search that has taken the transition once takes it again by a lookup, with no copy of the
// rank, no engine-rule step, no encoding and no probe of the piece table: in the checker's
// instances nine transitions in ten are rank-local and almost all of those were taken before from
// another state (the other ranks elsewhere).
//
// What the stand-in changes is the naming of threads: a part kept here may hold its ops on other
// threads than the part the search would have made, so a claim enabled in it may name another
// free thread. The search's verdict and its states do not depend on thread names; its witness
// does, and is renamed as the run has it (explore.cpp, witness_as_run).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <unordered_map>
#include <vector>

#include "checker/search/page_array.hpp"
#include "checker/search/visited_set.hpp"
#include "checker/system/cow_box.hpp"
#include "checker/system/state.hpp"
#include "runtime/dag/transition.hpp"

namespace ordo::checker {

class TransitionMemo {
 public:
  struct Successor {
    VisitedSet::Place piece;
    std::uint32_t part;  // part(part) is the successor's part
  };
  const CowBox<RankState>& part(std::uint32_t index) const { return parts_[index]; }

  TransitionMemo();
  // The successor of taking `transition` in a part of `rank` with this piece, when kept.
  std::optional<Successor> find(dag::Rank rank, VisitedSet::Place piece,
                                const dag::Transition& transition) const;
  // Keeps the successor `part` (with piece `successor_piece`) and returns what is kept: the one
  // part the memo holds for that rank and piece, so that successors with equal bytes share one
  // part (and its cached encoding and enabled transitions). A transition whose thread number is
  // too large for an entry is not kept (and is applied each time).
  Successor add(dag::Rank rank, VisitedSet::Place piece, const dag::Transition& transition,
                VisitedSet::Place successor_piece, const CowBox<RankState>& part);
  std::size_t size() const { return size_; }

 private:
  // One cache line holds two entries. `part` is an index into parts_ plus one; 0: empty.
  struct Entry {
    VisitedSet::Place piece;
    dag::Rank rank;
    dag::OpId op;
    VisitedSet::Place successor;
    std::uint32_t thread_kind;  // (claim's thread plus one, 0: none) << 2 | kind
    std::uint32_t part;
  };
  static_assert(sizeof(Entry) == 32);
  static std::optional<std::uint32_t> thread_kind_of(const dag::Transition& transition);
  static std::uint64_t hash_of(VisitedSet::Place piece, dag::Rank rank, dag::OpId op,
                               std::uint32_t thread_kind);
  void grow();

  PageArray<Entry> table_;  // open addressing, linear probing; size a power of two
  std::size_t size_ = 0;
  std::vector<CowBox<RankState>> parts_;
  struct PartKeyHash {
    std::size_t operator()(const std::pair<dag::Rank, VisitedSet::Place>& k) const;
  };
  std::unordered_map<std::pair<dag::Rank, VisitedSet::Place>, std::uint32_t, PartKeyHash> part_of_;
};

}  // namespace ordo::checker
