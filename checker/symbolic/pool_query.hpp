// Query (c) of docs/symbolic.md: can a pool be exhausted by blocking collectives while it has
// work waiting? In a stuck state a pool with a ready op has every thread held, and only blocking
// collective ops hold threads there; the ready op could have started next in some order of the
// happens-before graph. So the query asks whether `threads` blocking collective ops of the pool
// and one more of its ops can all be in flight (started, not completed) at one moment.
//
// Encoding: a set of ops can all be in flight at one moment of some linearization of the graph
// exactly when no op of the set completes before another one starts in the graph (then the
// ancestors of their starts form a prefix in which all have started and none completed; the
// converse is immediate). So the query is a clique problem over that "may overlap" relation:
// one boolean per op of the pool, a clause against every ordered pair, and two cardinality
// constraints, solved by Z3. Unsat for every pool rules exhaustion out on every schedule.
#pragma once

#include <z3++.h>

#include <cstdint>
#include <string>
#include <vector>

#include "checker/symbolic/hb.hpp"
#include "checker/symbolic/timeline.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::checker::symbolic {

struct PoolAnswer {
  Answer answer = Answer::unknown;
  bool counted = false;              // decided by counting the pool's ops, without Z3
  // Decided by the widths of the happens-before order on the pool's ops (pool_query.cpp), without
  // Z3; blocking_width is the most blocking ops that can be in flight together.
  bool by_width = false;
  std::uint32_t blocking_width = 0;
  std::uint32_t blocking_ops = 0;    // blocking collective ops of the pool
  std::uint32_t ops = 0;             // all ops of the pool
  std::uint64_t ordered_pairs = 0;   // pairs of the pool's ops ordered by happens-before
  std::vector<dag::OpId> in_flight;  // sat: ops that can be in flight together
  std::string reason;                // unknown: why
};

// Bounds the overlap relation's memory: events times pool ops, in bits.
inline constexpr std::uint64_t pool_relation_bits_max = std::uint64_t{1} << 30;

// by_widths: try the width argument (pool_query.cpp) before the solver; off only in the tests
// that hold the two to each other.
PoolAnswer check_pool(z3::context& ctx, const HappensBefore& hb, const dag::Program& program,
                      dag::PoolId pool, double seconds, bool by_widths = true);

}  // namespace ordo::checker::symbolic
