// The global state of a job under exploration: per rank the engine's rules (a copyable
// engine::EngineState value, the one definition of readiness and dispatch), the main thread's
// position, and each program op's phase; per communicator the calls issued and not yet matched.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checker/system/cow_box.hpp"
#include "checker/system/system.hpp"
#include "runtime/comm/rules/device_streams.hpp"
#include "runtime/comm/rules/match_state.hpp"
#include "runtime/dag/transition.hpp"
#include "runtime/engine/rules/engine_state.hpp"

namespace ordo::checker {

enum class OpPhase : std::uint8_t {
  unsubmitted,
  submitted,   // in the rules, waiting for its vars or ready in its pool's run queue
  running,     // a sync op on its thread; it may complete at any moment
  claimed,     // a collective op on its thread, its call not issued yet (S3)
  issued,      // a collective op that issued its call; not yet matched
  returnable,  // issued, unmatched, and the members its call needs have issued: it may complete
               // now, before the match (C4), or wait for the match like an issued op
  fired,       // its collective matched (stream-ordered: completed on the stream): it may complete
  completed,
};

struct RankState {
  explicit RankState(const dag::Program& program);

  engine::EngineState rules;
  std::uint32_t pc = 0;        // the main thread's next action
  bool main_blocked = false;   // the action at pc is a collective issued and not yet matched
                               // (under a stream-ordered backend: not yet completed)
  // Blocked, and the members its call needs have issued (C4). The communicator's matching state
  // says it too; the rank keeps its own copy (as it keeps OpPhase::returnable) because its
  // enabled transitions are cached with its part and must change when another rank's issue
  // makes the return possible.
  bool main_may_return = false;
  comm::DeviceStream stream;   // launched calls not completed; empty unless stream-ordered
  // The messages this rank's held recvs from any source may take now (M4, S9), kept here for the
  // reason main_may_return is: another rank's send opens a choice. A function of the
  // communicators' matching states, so not part of the encoding.
  struct Choice {
    dag::CommId comm = 0;
    std::uint64_t tag = 0;  // the party whose recv chooses (tag_of)
    dag::Rank source = 0;   // world rank
    friend bool operator==(const Choice&, const Choice&) = default;
  };
  std::vector<Choice> choices;
  std::vector<OpPhase> phase;  // by op id
  std::vector<engine::OpHandle> handle;  // by op id, meaningful from submit to completion
  std::vector<dag::OpId> op_of_slot;     // by rules op slot
  // This rank's part of the state's encoding, made when first asked for and dropped on every
  // write (State::rank_for_write): a state that shares the rank with its parent shares it too.
  // A copy starts empty, since it is made to be written. `piece` is where a search's table of
  // rank encodings keeps these bytes (search/state_keys.hpp), valid for the table `table` names.
  struct EncodingCache {
    EncodingCache() = default;
    EncodingCache(const EncodingCache&) {}
    EncodingCache& operator=(const EncodingCache&) {
      drop();
      return *this;
    }
    void drop() {
      bytes.clear();
      valid = false;
      table = 0;
    }
    std::string bytes;
    bool valid = false;
    std::uint64_t table = 0;  // 0: no table
    std::uint64_t piece = 0;
  };
  mutable EncodingCache encoded;
  // The rank's enabled transitions (enabled_transitions in transitions.hpp), kept as `encoded`
  // is: made when first asked for, dropped on every write, and empty in a copy. A rank part that
  // many states share (a rank that did not move while others did) has them worked out once.
  struct TransitionsCache {
    TransitionsCache() = default;
    TransitionsCache(const TransitionsCache&) {}
    TransitionsCache& operator=(const TransitionsCache&) {
      drop();
      return *this;
    }
    void drop() {
      list.clear();
      valid = false;
    }
    std::vector<dag::Transition> list;
    bool valid = false;
  };
  mutable TransitionsCache enabled;
};

// Ranks and communicators are shared between a state and the states copied from it until one
// of them writes (copy on write): a transition touches one rank (and a communicator when it
// issues), so a child state costs one rank's copy, not the whole job's. Every write goes through
// rank_for_write or comm_for_write, which copy a shared part first; readers see const parts.
class State {
 public:
  std::uint32_t rank_count() const { return static_cast<std::uint32_t>(ranks_.size()); }
  std::uint32_t comm_count() const { return static_cast<std::uint32_t>(comms_.size()); }
  const RankState& rank(dag::Rank r) const { return ranks_.at(r).get(); }
  const comm::MatchState& comm(dag::CommId c) const { return comms_.at(c).get(); }
  RankState& rank_for_write(dag::Rank r);
  comm::MatchState& comm_for_write(dag::CommId c);
  // The rank's part as it is shared, and putting a shared part in its place: how a search reuses
  // a successor part it made before (search/transition_memo.hpp) instead of making it again.
  const CowBox<RankState>& rank_part(dag::Rank r) const { return ranks_.at(r); }
  void share_rank(dag::Rank r, const CowBox<RankState>& part) { ranks_.at(r) = part; }

  // Whether every part but `rank`'s is still shared with `parent`, this state's origin: the
  // transition that made it wrote no other rank and no communicator.
  bool wrote_only(const State& parent, dag::Rank rank) const;

  void add_rank(RankState rank);
  void add_comm(comm::MatchState comm);
  // Releases every part and keeps the buffers (a search reuses a state it is done with).
  void clear() {
    ranks_.clear();
    comms_.clear();
  }

 private:
  std::vector<CowBox<RankState>> ranks_;
  std::vector<CowBox<comm::MatchState>> comms_;
};

// The tag a call is posted with: which party of its rank issued it. A main thread has at most
// one call in flight (it blocks in it), so 0 names it; op k is k + 1.
std::uint64_t tag_of(std::optional<dag::OpId> op);
std::optional<dag::OpId> op_of_tag(std::uint64_t tag);

State initial_state(const System& model);

// Every rank's main thread is past its last action and every op it submitted completed.
bool rank_finished(const System& model, const State& state, dag::Rank rank);
// Every rank finished, and no call is unmatched (one returned from early may be, C4).
bool finished(const System& model, const State& state);

}  // namespace ordo::checker
