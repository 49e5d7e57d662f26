// The global state of a job under exploration: per rank the engine's rules (a copyable
// engine::EngineState value, the one definition of readiness and dispatch), the main thread's position,
// and each program op's phase; per communicator the calls issued and not yet matched.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/system/cow_box.hpp"
#include "checker/system/model.hpp"
#include "runtime/comm/rules/match_state.hpp"
#include "runtime/engine/rules/engine_state.hpp"

namespace ordo::checker {

enum class OpPhase : std::uint8_t {
  unpushed,
  pushed,   // in the rules, waiting for its vars or ready in its pool's run queue
  running,  // a sync op on its thread; it may complete at any moment
  claimed,  // a collective op on its thread, its call not issued yet (S3)
  issued,   // a collective op that issued its call; not yet matched
  fired,    // its collective matched: the op may complete
  completed,
};

struct RankState {
  explicit RankState(const dag::Program& program);

  engine::EngineState rules;
  std::uint32_t pc = 0;        // the main thread's next action
  bool main_blocked = false;   // the action at pc is a collective issued and not yet matched
  std::vector<OpPhase> phase;  // by op id
  std::vector<engine::OpHandle> handle;  // by op id, meaningful from push to completion
  std::vector<dag::OpId> op_of_slot;     // by rules op slot
  // This rank's part of the state's encoding, made when first asked for and dropped on every
  // write (State::rank_for_write): a state that shares the rank with its parent shares it too.
  // A copy starts empty, since it is made to be written.
  struct EncodingCache {
    EncodingCache() = default;
    EncodingCache(const EncodingCache&) {}
    EncodingCache& operator=(const EncodingCache&) {
      bytes.clear();
      valid = false;
      return *this;
    }
    std::string bytes;
    bool valid = false;
  };
  mutable EncodingCache encoded;
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

  void add_rank(RankState rank);
  void add_comm(comm::MatchState comm);

 private:
  std::vector<CowBox<RankState>> ranks_;
  std::vector<CowBox<comm::MatchState>> comms_;
};

// The tag a call is posted with: which party of its rank issued it. A main thread has at most
// one call in flight (it blocks in it), so 0 names it; op k is k + 1.
std::uint64_t tag_of(std::optional<dag::OpId> op);
std::optional<dag::OpId> op_of_tag(std::uint64_t tag);

State initial_state(const Model& model);

// Every rank's main thread is past its last action and every op it pushed completed.
bool rank_finished(const Model& model, const State& state, dag::Rank rank);
bool finished(const Model& model, const State& state);

// A byte string that is equal for two states exactly when they have the same future: it names
// ops by program op id (never by rules slot) and run queues by order (never by sequence number).
// Why that suffices: a var's grants are a function of the accesses pushed to it (fixed by the
// main pc, since each rank pushes in program order) and of which of them completed, because the
// grant rule is a greedy prefix of the var's queue that a completion can only extend; everything
// else the rules hold (thread occupancy, pending counts, op states) is encoded explicitly.
std::string encode(const Model& model, const State& state);

// Equal for two states exactly when one is the other with ranks renamed. Requires
// model.ranks_interchangeable(): then renamed states have renamed futures, so one of them
// stands for all (symmetry reduction); the search still walks real states, so a witness is a
// real schedule.
std::string encode_up_to_rank_renaming(const Model& model, const State& state);

// The key a search stores for a state: encode_up_to_rank_renaming when the ranks are
// interchangeable and the symmetry reduction is asked for, encode otherwise. Keeps its buffers
// from call to call, since a search makes a key per transition; the view lasts until the next.
class StateKeys {
 public:
  StateKeys(const Model& model, bool symmetry);
  bool symmetric() const { return symmetric_; }
  std::string_view key(const State& state);

 private:
  const Model& model_;
  bool symmetric_;
  std::string out_;
  std::vector<std::string> rank_keys_;
};

}  // namespace ordo::checker
