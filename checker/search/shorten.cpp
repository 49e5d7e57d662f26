#include "checker/search/shorten.hpp"

#include <chrono>
#include <stdexcept>

#include "checker/system/deadlock.hpp"
#include "checker/system/transitions.hpp"

namespace ordo::checker {

namespace {

using Clock = std::chrono::steady_clock;

// Runs `transitions` from the initial state. Returns the violation of `property` they reach, if
// they are a legal schedule that reaches one; a violation of another property, an illegal
// transition or a run that ends anywhere else gives nullopt.
std::optional<comm::Violation> reaches(const System& model,
                                       const std::vector<dag::Transition>& transitions,
                                       Property property, std::size_t& used) {
  State state = initial_state(model);
  for (std::size_t i = 0; i < transitions.size(); ++i) {
    std::optional<comm::Violation> v;
    try {
      v = apply(model, state, transitions[i]);
    } catch (const std::logic_error&) {
      return std::nullopt;
    }
    if (!v) continue;
    if (property_of(*v) != property) return std::nullopt;
    used = i + 1;
    return v;
  }
  if (property != Property::p3_deadlock && property != Property::p4_termination) {
    return std::nullopt;
  }
  if (!stuck(model, state)) return std::nullopt;
  comm::Violation deadlock = describe_deadlock(model, state);
  if (property_of(deadlock) != property) return std::nullopt;
  used = transitions.size();
  return deadlock;
}

}  // namespace

Result shorten(const System& model, Result result, double seconds_max) {
  if (result.verdict != Verdict::unsafe || !result.property) return result;
  const Clock::time_point begin = Clock::now();
  const auto out_of_time = [&] {
    return std::chrono::duration<double>(Clock::now() - begin).count() >= seconds_max;
  };
  std::vector<dag::Transition> best = result.witness;
  for (std::size_t chunk = best.size() / 2; chunk >= 1; chunk /= 2) {
    // Back to front: late transitions are the likeliest to be unrelated leftovers, and removing
    // them first keeps earlier chunk positions valid.
    for (std::size_t end = best.size(); end >= chunk && !out_of_time();) {
      std::vector<dag::Transition> candidate(
          best.begin(), best.begin() + static_cast<std::ptrdiff_t>(end - chunk));
      candidate.insert(candidate.end(), best.begin() + static_cast<std::ptrdiff_t>(end),
                       best.end());
      std::size_t used = 0;
      if (std::optional<comm::Violation> v = reaches(model, candidate, *result.property, used)) {
        candidate.resize(used);
        best = std::move(candidate);
        result.violation = std::move(*v);
        end = std::min(end - chunk, best.size());
      } else {
        end -= 1;
      }
    }
    if (out_of_time()) break;
  }
  result.witness = std::move(best);
  return result;
}

}  // namespace ordo::checker
