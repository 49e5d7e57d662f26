#include "checker/symbolic/pool_query.hpp"

namespace ordo::checker::symbolic {

namespace {

using Bits = std::vector<std::uint64_t>;

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

}  // namespace

PoolAnswer check_pool(z3::context& ctx, const HappensBefore& hb, const dag::Program& program,
                      dag::PoolId pool, double seconds) {
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
