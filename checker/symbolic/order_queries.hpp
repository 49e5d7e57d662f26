// Queries (a) and (b) of docs/symbolic.md over one program's timeline. (a): the calls on one
// communicator, in event order, form a chain: each completes before the next issues (when it
// blocks) or at least issues before it (when it is non-blocking). (b): all the
// program's calls, on every communicator, are issued in one order. Each is one satisfiability
// check of the disjunction of the broken links, so a chain of any length costs one query.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checker/symbolic/hb.hpp"
#include "checker/symbolic/timeline.hpp"

namespace ordo::checker::symbolic {

// Indices into hb.calls() of the calls on `comm`, in event order.
std::vector<std::uint32_t> calls_on(const HappensBefore& hb, dag::CommId comm);
// Indices of every call, in event order.
std::vector<std::uint32_t> all_calls(const HappensBefore& hb);

enum class Link : std::uint8_t {
  matched_before_issue,  // (a): complete(c_i) before issue(c_i+1), or issue before issue when
                         // c_i does not block
  issue_before_issue,    // (b)
};

// Whether a link from `earlier` must wait for its match: only a blocking call in flight forbids
// another issue on its communicator (docs/semantics.md, C3); after a non-blocking one, the next
// call, blocking or not, need only issue later.
inline bool must_match(const CallEvents& earlier, Link link) {
  return link == Link::matched_before_issue && earlier.blocking;
}

struct ChainAnswer {
  Answer answer = Answer::unknown;
  // Decided from the graph, without the solver: the timeline holds only t(x) < t(y) per edge, so
  // "b before a" is satisfiable exactly when no path leads from a to b (docs/symbolic.md). unsat:
  // every link is a path; sat (when no times were asked for): `link` is the first that is not.
  bool by_paths = false;
  std::string reason;  // unknown before Z3 was asked: why (else Timeline::reason says)
  // sat: the first link the model breaks, calls[link] and calls[link + 1]; times of every event
  // (empty when decided by paths).
  std::size_t link = 0;
  std::vector<std::int64_t> times;
};

// Whether some schedule breaks a link of `calls` (unsat: none does). times_needed: a sat answer
// comes with the times of a schedule that breaks it (Z3's model); without, a sat answer names the
// first link that is no path and has no times.
ChainAnswer check_chain(Timeline& timeline, const std::vector<std::uint32_t>& calls, Link link,
                        double seconds, bool times_needed = true);

// The constraint that link `i` of `calls` is broken: calls[i + 1] issues first.
z3::expr link_broken(Timeline& timeline, const std::vector<std::uint32_t>& calls, std::size_t i,
                     Link link);

}  // namespace ordo::checker::symbolic
