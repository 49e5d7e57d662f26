// Query (d) of docs/symbolic.md, for a fixed number of ranks: is there a stuck cut? One boolean
// per (rank, event) says the event happened. The cut is downward closed under happens-before,
// a collective has completed once every member issued its call of that sequence number, and
// before that only if it returned early (the members it needs issued, docs/semantics.md C4),
// and no transition is possible under the synchronising reading: no compute or copy op runs, the
// main thread's next action is not enabled, and a pool with a ready op has all its threads held by
// blocking collectives; and some event has not happened or some call is unmatched. Every reachable
// stuck state is such a cut, so unsat proves that every execution at this rank count finishes (P3
// and P4). A sat cut is a candidate for a guided run to reach.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checker/symbolic/hb.hpp"
#include "checker/symbolic/timeline.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::checker::symbolic {

struct CutRank {
  const dag::Program* program = nullptr;
  const HappensBefore* hb = nullptr;
};

struct CutProblem {
  std::vector<CutRank> ranks;                   // by rank, 0 to n - 1
  std::vector<std::vector<dag::Rank>> members;  // by communicator: its ranks among 0 to n - 1
  // By communicator: how many leading sequence numbers can match at all. Calls from the first
  // one whose members disagree on the collective never complete (matching them is a mismatch,
  // which the caller decides apart).
  std::vector<std::uint64_t> matchable;
};

struct CutAnswer {
  Answer answer = Answer::unknown;
  std::vector<std::vector<bool>> done;  // sat: by rank, by event
  std::string reason;                   // unknown: Z3's reason
  std::uint64_t booleans = 0;
};

CutAnswer check_stuck_cut(z3::context& ctx, const CutProblem& problem, double seconds);

}  // namespace ordo::checker::symbolic
