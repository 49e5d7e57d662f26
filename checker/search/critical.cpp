#include "checker/search/critical.hpp"

#include <algorithm>
#include <chrono>
#include <string>

#include "checker/search/memory.hpp"
#include "checker/search/reduction.hpp"
#include "checker/search/state_keys.hpp"
#include "checker/search/visited_set.hpp"
#include "checker/system/transitions.hpp"

namespace ordo::checker {

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

Reach can_finish(const System& model, const State& from, const ExploreLimits& limits) {
  // Depth-first over the reduced graph: partial-order reduction keeps every terminal state and
  // never reorders collective issues, so a violation-free path to the end survives it.
  const Clock::time_point begin = Clock::now();
  const std::uint64_t bytes_at_begin = resident_bytes();
  StateKeys keys(model, true);
  VisitedSet visited;
  visited.insert(keys.key(from));
  struct Frame {
    State state;
    std::vector<dag::Transition> transitions;
    std::size_t next = 0;
  };
  std::vector<Frame> stack;
  auto push = [&](State s) -> bool {  // true: `s` is a finished state
    std::vector<dag::Transition> enabled = enabled_transitions(model, s);
    // A deadlock is no way out, even where early returns could move on (checker::stuck).
    if (stuck(model, s, enabled)) return false;
    if (enabled.empty()) return true;  // finished
    std::vector<dag::Transition> ample = ample_transitions(model, s, enabled);
    stack.push_back(Frame{std::move(s), std::move(ample), 0});
    return false;
  };
  if (push(from)) return Reach::yes;
  std::uint32_t countdown = 0;
  const std::uint32_t interval = std::max<std::uint32_t>(1, 2048 / model.ranks());
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next == top.transitions.size()) {
      stack.pop_back();
      continue;
    }
    if (++countdown >= interval) {
      countdown = 0;
      if (std::chrono::duration<double>(Clock::now() - begin).count() >= limits.seconds_max) {
        return Reach::unknown;
      }
      const std::uint64_t bytes = resident_bytes();
      if (bytes > bytes_at_begin && bytes - bytes_at_begin > limits.bytes_max) {
        return Reach::unknown;
      }
    }
    State child = top.state;
    if (apply(model, child, top.transitions[top.next++])) continue;  // a violation: not a way out
    if (!visited.insert(keys.key(child))) continue;
    if (visited.size() >= limits.states_max) return Reach::unknown;
    if (push(std::move(child))) return Reach::yes;
  }
  return Reach::no;
}

std::optional<std::size_t> critical_transition(const System& model,
                                               const std::vector<dag::Transition>& witness,
                                               const ExploreLimits& limits) {
  // The state after the first `n` witness transitions, rebuilt for each probe: keeping every state
  // along the witness would take its length times a state's size, too much at many ranks. The
  // last transition may itself be the violation; it is never applied.
  std::size_t applicable = 0;
  {
    State probe = initial_state(model);
    for (const dag::Transition& transition : witness) {
      if (apply(model, probe, transition)) break;
      ++applicable;
    }
  }
  const auto state_after = [&](std::size_t n) {
    State s = initial_state(model);
    for (std::size_t i = 0; i < n; ++i) apply(model, s, witness[i]);
    return s;
  };
  // Doomed is monotone along the witness (a doomed state's successors are doomed), so the
  // first doomed state is found by bisection.
  std::size_t lo = 0;
  std::size_t hi = applicable;
  const Reach last = can_finish(model, state_after(hi), limits);
  // The state before a violating transition can still finish: the transition itself is the
  // decision.
  if (last == Reach::yes) return witness.size();
  if (last == Reach::unknown) return std::nullopt;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    const Reach r = can_finish(model, state_after(mid), limits);
    if (r == Reach::unknown) return std::nullopt;
    if (r == Reach::no) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

}  // namespace ordo::checker
