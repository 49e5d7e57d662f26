// A guided run: one concrete execution of a job on the explicit checker's own transition system
// (initial_state, apply, and enabled_transitions and the stuck check at the end), steered by
// preferences over each rank's events. At every transition it takes, among the transitions that are
// truly enabled, the one whose event its rank's profile ranks first. Whatever violation it reaches
// is real, because only the transition system says what happened; that is how a candidate from a
// satisfiable query becomes an `unsafe` verdict with a witness, or nothing.
//
// The run tracks enabled transitions incrementally (a transition can only change what its own rank,
// or the members of a call it matched, may do next), so it is linear in its transitions up to a
// logarithm, and it applies transitions in place: thousands of ranks are fine.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "checker/search/verdict.hpp"
#include "checker/symbolic/hb.hpp"
#include "checker/system/system.hpp"

namespace ordo::checker::symbolic {

// A preference value that keeps an event from being taken at all.
inline constexpr std::uint64_t never = std::numeric_limits<std::uint64_t>::max();

struct Plan {
  // Each profile ranks the events of one program (by event id): smaller first.
  std::vector<std::vector<std::uint64_t>> profiles;
  std::vector<std::uint32_t> profile_of_rank;  // by rank
};

enum class RunEnd : std::uint8_t {
  violation,    // a mismatch, a thread-rule break, or a stuck state before the end
  finished,     // every rank finished: the run shows nothing
  stopped,      // only transitions the profiles exclude were left
  out_of_time,  // the time budget ran out first
};

struct GuidedResult {
  RunEnd end = RunEnd::finished;
  Result result;  // violation: verdict unsafe, property, violation and witness, as explore gives
  std::uint64_t transitions = 0;
};

// `hb_of_rank[r]` is the graph of rank r's program, which profile profile_of_rank[r] ranks.
// Throws std::invalid_argument when the plan does not fit the model.
GuidedResult guided_run(const System& model, const std::vector<const HappensBefore*>& hb_of_rank,
                        const Plan& plan, double seconds);

}  // namespace ordo::checker::symbolic
