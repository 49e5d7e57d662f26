// One program's happens-before graph as Z3 constraints: an integer timestamp per event and
// t(a) < t(b) per edge. Every schedule of the rank gives its events distinct times that satisfy
// them, so a query that is unsatisfiable over the timeline has no schedule; a satisfiable one
// is a candidate that a concrete run has to confirm. One solver holds the edges, and each query
// adds its own constraints inside push/pop, so the edges are asserted once per program.
#pragma once

#include <z3++.h>

#include <cstdint>
#include <string>
#include <vector>

#include "checker/symbolic/hb.hpp"

namespace ordo::checker::symbolic {

enum class Answer : std::uint8_t { unsat, sat, unknown };

class Timeline {
 public:
  Timeline(z3::context& ctx, const HappensBefore& hb);

  const HappensBefore& hb() const { return hb_; }
  z3::context& ctx() { return ctx_; }
  const z3::expr& t(EventId e) const { return times_.at(e); }

  // Checks the edges together with `query` (and nothing else added before), within `seconds`.
  // On sat, `times` receives the model's timestamp of every event. `reason` receives Z3's reason
  // on unknown. Counts every check in `checks`.
  Answer check(const z3::expr& query, double seconds, std::vector<std::int64_t>* times);
  std::uint32_t checks() const { return checks_; }
  const std::string& reason() const { return reason_; }

 private:
  z3::context& ctx_;
  const HappensBefore& hb_;
  z3::solver solver_;
  std::vector<z3::expr> times_;
  std::uint32_t checks_ = 0;
  std::string reason_;
};

// The timestamps of a model, by event id.
std::vector<std::int64_t> times_of(const z3::model& model, const std::vector<z3::expr>& times);

// Z3's solver timeout for what is left of a budget: at least one millisecond, so that a spent
// budget makes the solver answer unknown rather than run unbounded.
unsigned timeout_ms(double seconds);

}  // namespace ordo::checker::symbolic
