#include "checker/symbolic/pool_query.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "runtime/bounds/seconds.hpp"

namespace ordo::checker::symbolic {

namespace {

using Bits = std::vector<std::uint64_t>;
using Clock = std::chrono::steady_clock;

// For every event, the pool ops (by index in `ops`) whose completion happens before it or is it.
std::vector<Bits> completed_before(const HappensBefore& hb, const std::vector<dag::OpId>& ops) {
  const std::size_t words = (ops.size() + 63) / 64;
  std::vector<Bits> before(hb.events(), Bits(words, 0));
  std::vector<std::int64_t> index_of_completion(hb.events(), -1);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    index_of_completion[hb.complete(ops[i])] = static_cast<std::int64_t>(i);
  }
  // Event ids are a topological order, so every predecessor is final when it is read.
  for (EventId e = 0; e < hb.events(); ++e) {
    Bits& mine = before[e];
    for (EventId p : hb.preds(e)) {
      for (std::size_t w = 0; w < words; ++w) mine[w] |= before[p][w];
    }
    if (index_of_completion[e] >= 0) {
      const auto i = static_cast<std::size_t>(index_of_completion[e]);
      mine[i / 64] |= std::uint64_t{1} << (i % 64);
    }
  }
  return before;
}

bool has(const Bits& bits, std::size_t i) { return (bits[i / 64] >> (i % 64)) & 1u; }

// The largest set of pairwise unordered ops among `members` (indices into the pool's ops), where
// `ordered(a, b)` says a completes before b starts on every schedule: a strict partial order, since
// it is transitive through b's own start and completion. By Dilworth's theorem that width is the
// fewest chains that cover the members, which is their count less a maximum matching of the
// bipartite graph with an edge a -> b for every ordered pair (Fulkerson); the matching is found
// by augmenting paths (Kuhn's algorithm), polynomial where the clique query is not.
// nullopt when the clock passes `deadline` first (read once per augmenting search, each at most
// the relation's pairs).
template <class Ordered>
std::optional<std::size_t> width(const std::vector<std::size_t>& members, const Ordered& ordered,
                                 Clock::time_point deadline) {
  const std::size_t n = members.size();
  if (Clock::now() >= deadline) return std::nullopt;
  std::vector<std::vector<std::uint32_t>> later(n);
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      if (a != b && ordered(members[a], members[b])) later[a].push_back(static_cast<std::uint32_t>(b));
    }
  }
  constexpr std::uint32_t unmatched = UINT32_MAX;
  std::vector<std::uint32_t> matched_to(n, unmatched);  // right vertex -> left vertex
  std::vector<std::uint32_t> partner(n, unmatched);     // left vertex -> right vertex
  std::vector<std::uint32_t> visited(n, 0);
  std::uint32_t round = 0;
  std::size_t matching = 0;
  // Iterative augmenting path search from one left vertex.
  std::vector<std::pair<std::uint32_t, std::size_t>> stack;
  std::vector<std::uint32_t> via(n, unmatched);  // right vertex -> the left vertex that reached it
  for (std::size_t start = 0; start < n; ++start) {
    if (Clock::now() >= deadline) return std::nullopt;
    ++round;
    stack.assign(1, {static_cast<std::uint32_t>(start), 0});
    std::uint32_t free_right = unmatched;
    while (!stack.empty() && free_right == unmatched) {
      auto& [u, next] = stack.back();
      if (next == later[u].size()) {
        stack.pop_back();
        continue;
      }
      const std::uint32_t v = later[u][next++];
      if (visited[v] == round) continue;
      visited[v] = round;
      via[v] = u;
      if (matched_to[v] == unmatched) {
        free_right = v;
      } else {
        stack.push_back({matched_to[v], 0});
      }
    }
    if (free_right == unmatched) continue;
    // Flip the path back to `start`: each right vertex takes the left one that reached it, whose
    // old partner (if any) was reached the same way.
    for (std::uint32_t v = free_right; v != unmatched;) {
      const std::uint32_t u = via[v];
      const std::uint32_t previous = partner[u];
      matched_to[v] = u;
      partner[u] = v;
      v = previous;
    }
    ++matching;
  }
  return n - matching;
}

enum class Widths : std::uint8_t { decided, open, out_of_time };

// Decides the query without the solver where the widths settle it: no `threads` blocking ops can
// be in flight together when the blocking ops' width is below `threads`; with a width of exactly
// `threads`, the extra op must be a non-blocking one unordered with `threads` blocking ones.
// `decided`: out holds the unsat answer; `open`: the solver must answer.
template <class Ordered>
Widths decided_by_widths(const dag::Program& program, const std::vector<dag::OpId>& ops,
                         std::uint32_t threads, const Ordered& ordered,
                         Clock::time_point deadline, PoolAnswer& out) {
  std::vector<std::size_t> blocking_ops;
  std::vector<std::size_t> other_ops;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    (program.ops[ops[i]].kind == dag::OpKind::collective ? blocking_ops : other_ops).push_back(i);
  }
  const std::optional<std::size_t> blocking_width = width(blocking_ops, ordered, deadline);
  if (!blocking_width) return Widths::out_of_time;
  bool may_exhaust = *blocking_width > threads;
  if (*blocking_width == threads) {
    for (const std::size_t x : other_ops) {
      std::vector<std::size_t> unordered_with_x;
      for (const std::size_t b : blocking_ops) {
        if (!ordered(x, b) && !ordered(b, x)) unordered_with_x.push_back(b);
      }
      if (unordered_with_x.size() < threads) continue;
      const std::optional<std::size_t> w = width(unordered_with_x, ordered, deadline);
      if (!w) return Widths::out_of_time;
      if (*w >= threads) {
        may_exhaust = true;
        break;
      }
    }
  }
  if (!may_exhaust) {
    out.by_width = true;
    out.blocking_width = static_cast<std::uint32_t>(*blocking_width);
    for (std::size_t b = 0; b < ops.size(); ++b) {
      for (std::size_t a = 0; a < ops.size(); ++a) out.ordered_pairs += a != b && ordered(a, b);
    }
    out.answer = Answer::unsat;
    return Widths::decided;
  }
  return Widths::open;
}

}  // namespace

PoolAnswer check_pool(z3::context& ctx, const HappensBefore& hb, const dag::Program& program,
                      dag::PoolId pool, double seconds, bool by_widths) {
  PoolAnswer out;
  const std::uint32_t threads = program.pools.at(pool).threads;
  std::vector<dag::OpId> ops;
  for (dag::OpId o = 0; o < program.ops.size(); ++o) {
    if (program.ops[o].pool != pool) continue;
    ops.push_back(o);
    if (program.ops[o].kind == dag::OpKind::collective) ++out.blocking_ops;
  }
  out.ops = static_cast<std::uint32_t>(ops.size());
  if (out.blocking_ops < threads || out.ops < threads + 1) {
    out.counted = true;
    out.answer = Answer::unsat;
    return out;
  }
  if (std::uint64_t{hb.events()} * ops.size() > pool_relation_bits_max) {
    out.reason = "the pool's overlap relation needs more than " +
                 std::to_string(pool_relation_bits_max) + " bits";
    return out;
  }
  const std::vector<Bits> before = completed_before(hb, ops);
  const auto ordered = [&](std::size_t a, std::size_t b) {
    return has(before[hb.start(ops[b])], a);
  };
  if (by_widths) {
    const Clock::time_point deadline = bounds::deadline_after(Clock::now(), seconds);
    switch (decided_by_widths(program, ops, threads, ordered, deadline, out)) {
      case Widths::decided:
        return out;
      case Widths::out_of_time:
        out.reason = "the time ran out while measuring the widths of the happens-before order";
        return out;
      case Widths::open:
        break;
    }
  }
  z3::solver solver(ctx);
  z3::expr_vector chosen(ctx);
  z3::expr_vector blocking(ctx);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    chosen.push_back(ctx.bool_const(("in_flight_" + std::to_string(ops[i])).c_str()));
    if (program.ops[ops[i]].kind == dag::OpKind::collective) {
      blocking.push_back(chosen[static_cast<int>(i)]);
    }
  }
  for (std::size_t b = 0; b < ops.size(); ++b) {
    const Bits& done_before_start = before[hb.start(ops[b])];
    for (std::size_t a = 0; a < ops.size(); ++a) {
      if (a != b && has(done_before_start, a)) {
        solver.add(!chosen[static_cast<int>(a)] || !chosen[static_cast<int>(b)]);
        ++out.ordered_pairs;
      }
    }
  }
  solver.add(z3::atleast(blocking, threads));
  solver.add(z3::atleast(chosen, threads + 1));
  solver.set("timeout", timeout_ms(seconds));
  const z3::check_result r = solver.check();
  if (r == z3::unsat) {
    out.answer = Answer::unsat;
  } else if (r == z3::sat) {
    out.answer = Answer::sat;
    const z3::model m = solver.get_model();
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (m.eval(chosen[static_cast<int>(i)], true).is_true()) out.in_flight.push_back(ops[i]);
    }
  } else {
    out.reason = solver.reason_unknown();
  }
  return out;
}

}  // namespace ordo::checker::symbolic
