#include "checker/symbolic/timeline.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ordo::checker::symbolic {

unsigned timeout_ms(double seconds) {
  const double ms = std::floor(seconds * 1000.0);
  if (!(ms >= 1.0)) return 1;
  return ms >= static_cast<double>(std::numeric_limits<unsigned>::max())
             ? std::numeric_limits<unsigned>::max()
             : static_cast<unsigned>(ms);
}

std::vector<std::int64_t> times_of(const z3::model& model, const std::vector<z3::expr>& times) {
  std::vector<std::int64_t> out(times.size(), 0);
  for (std::size_t e = 0; e < times.size(); ++e) {
    const z3::expr v = model.eval(times[e], true);
    std::int64_t value = 0;
    if (v.is_numeral_i64(value)) out[e] = value;
  }
  return out;
}

Timeline::Timeline(z3::context& ctx, const HappensBefore& hb) : ctx_(ctx), hb_(hb), solver_(ctx) {
  // Every constraint on the timeline is a difference of two timestamps against a constant: the
  // Bellman-Ford difference-logic solver decides those several times faster than simplex. It is
  // chosen before the first assertion, when the solver sets up its theories.
  solver_.set("arith.solver", 1u);
  times_.reserve(hb.events());
  for (EventId e = 0; e < hb.events(); ++e) {
    times_.push_back(ctx.int_const(("t" + std::to_string(e)).c_str()));
  }
  for (EventId e = 0; e < hb.events(); ++e) {
    for (EventId p : hb.preds(e)) solver_.add(times_[p] < times_[e]);
  }
}

Answer Timeline::check(const z3::expr& query, double seconds, std::vector<std::int64_t>* times) {
  ++checks_;
  solver_.push();
  solver_.add(query);
  solver_.set("timeout", timeout_ms(seconds));
  const z3::check_result r = solver_.check();
  Answer answer = Answer::unknown;
  if (r == z3::unsat) {
    answer = Answer::unsat;
  } else if (r == z3::sat) {
    answer = Answer::sat;
    if (times != nullptr) *times = times_of(solver_.get_model(), times_);
  } else {
    reason_ = solver_.reason_unknown();
  }
  solver_.pop();
  return answer;
}

}  // namespace ordo::checker::symbolic
