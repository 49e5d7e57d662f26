#include "checker/search/explore.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "checker/search/memory.hpp"
#include "checker/search/reduction.hpp"
#include "checker/search/state_keys.hpp"
#include "checker/search/transition_memo.hpp"
#include "checker/search/visited_set.hpp"
#include "checker/system/deadlock.hpp"
#include "checker/system/transitions.hpp"
#include "runtime/bounds/seconds.hpp"

namespace ordo::checker {

namespace {

using Clock = std::chrono::steady_clock;

struct Frame {
  State state;
  StateKeys::Parts parts;  // of the state's key
  std::vector<dag::Transition> transitions;
  std::size_t next = 0;
  bool reduced = false;  // transitions is one rank's ample set, a strict subset of the enabled
  // Per transition, its successor as the memo knew it when the frame was pushed, with the
  // successor's key (in known_keys) and the key's hash.
  struct Known {
    bool kept = false;
    TransitionMemo::Successor successor{};
    std::uint64_t hash = 0;
    std::uint32_t key_at = 0;
    std::uint32_t key_size = 0;
  };
  std::vector<Known> known;
  std::string known_keys;
};

// The transitions taken from the initial state to the top frame's latest child: the stack is
// the first `depth` frames.
std::vector<dag::Transition> path_of(const std::vector<Frame>& stack, std::size_t depth) {
  std::vector<dag::Transition> path;
  for (std::size_t i = 0; i < depth; ++i) path.push_back(stack[i].transitions[stack[i].next - 1]);
  return path;
}

// The witness with each claim's thread named as a run names it: the lowest free thread of its
// pool in the state the run has reached. The search's states may hold a rank part that stands for
// another with the same bytes (transition_memo.hpp), whose ops may sit on other threads of their
// pool; equal bytes mean equal futures up to that naming, so the renamed path is enabled and
// reaches states with the same bytes, the violation included.
// `state` is where the renamed path ends (the state before the violation, when the last
// transition violates a property).
std::vector<dag::Transition> witness_as_run(const System& model,
                                            std::vector<dag::Transition> witness, State& state) {
  state = initial_state(model);
  for (dag::Transition& t : witness) {
    if (t.kind == dag::Transition::Kind::claim) {
      const dag::PoolId pool = model.program(t.rank).ops.at(t.op).pool;
      t.thread = state.rank(t.rank).rules.lowest_free_thread(pool);
    }
    if (apply(model, state, t)) break;  // the violation: the witness's last transition
  }
  return witness;
}

class Search {
 public:
  Search(const System& model, const ExploreLimits& limits, const Reductions& reductions)
      : model_(model),
        limits_(limits),
        partial_order_(reductions.partial_order),
        symmetry_(reductions.symmetry && model.ranks_interchangeable()),
        keys_(model, symmetry_),
        begin_(Clock::now()),
        bytes_at_begin_(resident_bytes()) {
    result_.ranks = model.ranks();
    result_.stats.partial_order = partial_order_;
    result_.stats.symmetry = symmetry_;
  }

  Result run() {
    child_ = initial_state(model_);
    // A child state copies one rank of its parent (copy on write), so a rank's share of the
    // initial state is what a new state costs, give or take its key.
    const std::uint64_t now = resident_bytes();
    const std::uint64_t init_bytes = now > bytes_at_begin_ ? now - bytes_at_begin_ : 0;
    if (init_bytes > limits_.bytes_max) return unknown(Bound::bytes_max, limits_.bytes_max);
    state_bytes_ = std::max<std::uint64_t>(init_bytes / model_.ranks(), 1);
    visited_.insert(keys_.key(child_, child_parts_));
    ++result_.stats.states;
    enabled_transitions(model_, child_, next_);
    if (stuck(child_, next_)) return conclude();
    push_frame();
    while (depth_ > 0) {
      Frame& top = stack_[depth_ - 1];
      if (top.next == top.transitions.size()) {
        top.state.clear();  // its parts are released; its buffers stay for the next push
        --depth_;
        continue;
      }
      if (std::optional<Bound> bound = limit_reached()) {
        return unknown(*bound, *bound == Bound::seconds_max ? seconds_bound() : limits_.bytes_max);
      }
      const dag::Transition transition = top.transitions[top.next++];
      ++result_.stats.transitions;
      const Frame::Known& known = top.known[top.next - 1];
      if (known.kept) {
        // The child's key was made with the frame; the child itself is made only when new.
        if (!visited_.insert(std::string_view(top.known_keys).substr(known.key_at, known.key_size),
                             known.hash)) {
          continue;
        }
        child_ = top.state;
        child_.share_rank(transition.rank, memo_.part(known.successor.part));
        child_parts_ = top.parts;
        child_parts_.ranks[transition.rank] = known.successor.piece;
        keys_.sample_comm_check(child_);
      } else {
        child_ = top.state;
        const std::string_view key = take(top, transition);
        if (violation_) return unsafe(std::move(*violation_), path_of(stack_, depth_));
        if (!visited_.insert(key)) continue;
      }
      const State& child = child_;
      ++result_.stats.states;
      const std::uint64_t depth = depth_;
      if (depth > result_.stats.depth_max) result_.stats.depth_max = depth;
      enabled_transitions(model_, child, next_);
      if (stuck(child, next_)) return conclude();
      if (next_.empty()) ++result_.stats.finals;
      if (result_.stats.states >= limits_.states_max) {
        return unknown(Bound::states_max, limits_.states_max);
      }
      push_frame();
    }
    result_.verdict = Verdict::safe;
    return conclude();
  }

 private:
  // Pushes child_ with its key's parts (child_parts_) and its enabled transitions (next_),
  // reduced to an ample set. Frames popped earlier are reused, buffers and all, so a push
  // allocates nothing once the stack has been as deep.
  void push_frame() {
    if (depth_ == stack_.size()) stack_.emplace_back();
    Frame& frame = stack_[depth_++];
    frame.state = child_;
    frame.parts = child_parts_;
    frame.next = 0;
    frame.reduced = false;
    if (partial_order_) {
      const std::size_t enabled = next_.size();
      frame.reduced = reduce_to_ample(model_, frame.state, next_);
      result_.stats.transitions_deferred += enabled - next_.size();
    }
    frame.transitions.swap(next_);
    prefetch_children(frame);
  }

  // Most children of a state were visited before, so most of a frame's work is one probe of the
  // visited set per child, each a cache miss in a table of tens of megabytes. The keys of the
  // children the memo knows are cheap to make ahead, so their slots are fetched together here
  // and the misses overlap, instead of one after another as the children are taken. Only the
  // cache is touched: the children are still taken, and the set changed, in the same order.
  void prefetch_children(Frame& frame) {
    frame.known.resize(frame.transitions.size());
    frame.known_keys.clear();
    for (std::size_t i = 0; i < frame.transitions.size(); ++i) {
      const dag::Transition& t = frame.transitions[i];
      Frame::Known& known = frame.known[i];
      const std::optional<TransitionMemo::Successor> s =
          memo_.find(t.rank, frame.parts.ranks[t.rank], t);
      known.kept = s.has_value();
      if (!s) continue;
      const std::string_view key = keys_.key_ahead(t.rank, s->piece, frame.parts);
      known.successor = *s;
      known.hash = VisitedSet::hash_of(key);
      known.key_at = static_cast<std::uint32_t>(frame.known_keys.size());
      known.key_size = static_cast<std::uint32_t>(key.size());
      frame.known_keys.append(key);
      visited_.prefetch(known.hash);
    }
  }

  // Makes child_ (a copy of top's state) the state after `transition`, a transition the memo did
  // not know when the frame was pushed, and returns its key (in child_parts_). A rank-local one
  // is kept in the memo. Sets violation_ when the transition violates a property.
  std::string_view take(const Frame& top, const dag::Transition& transition) {
    const dag::Rank rank = transition.rank;
    const VisitedSet::Place piece = top.parts.ranks[rank];
    if (std::optional<comm::Violation> v = apply(model_, child_, transition)) {
      violation_ = std::move(v);
      return {};
    }
    // A child that differs from its parent in the transition's rank only has its key made from
    // the parent's key parts.
    const bool one_rank = child_.wrote_only(top.state, rank);
    if (top.reduced && !one_rank) throw_not_local(transition);
    if (!one_rank) return keys_.key(child_, child_parts_);
    const std::string_view key = keys_.key_after(child_, rank, top.parts, child_parts_);
    const TransitionMemo::Successor kept =
        memo_.add(rank, piece, transition, child_parts_.ranks[rank], child_.rank_part(rank));
    child_.share_rank(rank, memo_.part(kept.part));
    return key;
  }

  // The partial-order reduction rests on an ample set's transitions being invisible to every
  // other rank: they write their own rank only, so they commute with everything deferred. Checked
  // on every such transition, in release builds, from the parts the transition copied
  // (State::wrote_only); this reports one that wrote more.
  [[noreturn]] static void throw_not_local(const dag::Transition& t) {
    throw std::logic_error("internal error: a transition of rank " + std::to_string(t.rank) +
                           " taken as local by the partial-order reduction wrote another rank or "
                           "a communicator");
  }

  // A deadlock (checker::stuck: nothing but early returns enabled, the job not finished). Sets
  // the result and returns true in that case; the witness is the path to the top frame's latest
  // child (empty at the initial state, when the stack is).
  bool stuck(const State& state, const std::vector<dag::Transition>& enabled) {
    if (!checker::stuck(model_, state, enabled)) return false;
    // Described from the state the renamed witness reaches, so that the threads it names are the
    // run's (witness_as_run); it has the search's state's bytes, so it is as stuck.
    State run_state;
    std::vector<dag::Transition> witness =
        witness_as_run(model_, path_of(stack_, depth_), run_state);
    record_unsafe(describe_deadlock(model_, run_state), std::move(witness));
    return true;
  }

  // A violation found by a transition, with the search's path to it.
  Result unsafe(comm::Violation v, std::vector<dag::Transition> path) {
    State run_state;
    return record_unsafe(std::move(v), witness_as_run(model_, std::move(path), run_state));
  }

  Result record_unsafe(comm::Violation v, std::vector<dag::Transition> witness) {
    result_.verdict = Verdict::unsafe;
    result_.property = property_of(v);
    result_.violation = std::move(v);
    result_.witness = std::move(witness);
    return conclude();
  }

  Result unknown(Bound bound, std::uint64_t value) {
    result_.verdict = Verdict::unknown;
    result_.bound = bound;
    result_.bound_value = value;
    return conclude();
  }

  // Reading the clock and the memory on every transition would cost more than the transition
  // when states are small; when they are large a few transitions can take a lot of memory, so the
  // interval shrinks with the size of a state: the memory is read at least every 1/64 of the
  // bound's worth of new states.
  std::optional<Bound> limit_reached() {
    const std::uint64_t by_size = std::max<std::uint64_t>(limits_.bytes_max / 64 / state_bytes_, 1);
    const std::uint64_t interval =
        std::min<std::uint64_t>({2048, by_size, std::max<std::uint32_t>(1, 2048 / model_.ranks())});
    if (++clock_countdown_ < interval) return std::nullopt;
    clock_countdown_ = 0;
    if (seconds_since_begin() >= limits_.seconds_max) return Bound::seconds_max;
    const std::uint64_t now = resident_bytes();
    if (now > bytes_at_begin_ && now - bytes_at_begin_ > limits_.bytes_max) return Bound::bytes_max;
    return std::nullopt;
  }

  std::uint64_t seconds_bound() const { return bounds::whole_seconds(limits_.seconds_max); }

  double seconds_since_begin() const {
    return std::chrono::duration<double>(Clock::now() - begin_).count();
  }

  Result conclude() {
    result_.stats.seconds = seconds_since_begin();
    result_.stats.states_per_second =
        result_.stats.seconds > 0.0
            ? static_cast<double>(result_.stats.states) / result_.stats.seconds
            : 0.0;
    return result_;
  }

  const System& model_;
  ExploreLimits limits_;
  bool partial_order_;
  bool symmetry_;
  StateKeys keys_;
  State child_;  // the child being made; reused, so that a visited child allocates nothing
  StateKeys::Parts child_parts_;  // its key's parts
  Clock::time_point begin_;
  std::uint64_t bytes_at_begin_;
  std::vector<Frame> stack_;  // the first depth_ frames are the search's stack
  std::size_t depth_ = 0;
  std::vector<dag::Transition> next_;  // the enabled transitions of the child being made
  VisitedSet visited_;
  TransitionMemo memo_;
  std::optional<comm::Violation> violation_;  // of the transition take() took last
  std::uint32_t clock_countdown_ = 0;
  std::uint64_t state_bytes_ = 1;  // what one new state costs, measured on the initial state
  Result result_;
};

}  // namespace

Result explore(const System& model, const ExploreLimits& limits, const Reductions& reductions) {
  return Search(model, limits, reductions).run();
}

}  // namespace ordo::checker
