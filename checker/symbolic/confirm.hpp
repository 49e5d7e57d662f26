// Turns satisfiable queries into verdicts, or into nothing: each candidate gets a few guided
// runs (guided_run.hpp), and only a run that reaches a violation on the explicit transition
// system yields a Result, with the transitions it took as the witness.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "checker/search/verdict.hpp"
#include "checker/symbolic/budget.hpp"
#include "checker/symbolic/order_queries.hpp"
#include "checker/symbolic/programs.hpp"
#include "checker/system/system.hpp"

namespace ordo::checker::symbolic {

// A link of a program's chain that some schedule breaks: calls[link + 1] may issue before
// calls[link] matched (or issued).
struct OrderCandidate {
  std::uint32_t program = 0;
  std::vector<std::uint32_t> calls;
  std::size_t link = 0;
  Link kind = Link::matched_before_issue;
  std::vector<std::int64_t> broken_times;  // a model in which the link is broken
  std::vector<std::int64_t> kept_times;    // a model in which it holds; empty if none
};

// Runs, in order: one rank of the program issues both calls while the first is in flight (a
// thread-rule break, when one of them blocks); one rank rushes to the second call while the
// others rush to the first (a mismatch, or whatever they run into); one rank follows the breaking
// model while the others follow the keeping one.
std::optional<Result> confirm_order(const System& model, const Programs& programs,
                                    const OrderCandidate& candidate, const Budget& budget,
                                    std::uint32_t* runs);

// Every rank in event order: for calls whose members disagree on a communicator.
std::optional<Result> confirm_in_event_order(const System& model, const Programs& programs,
                                             const Budget& budget, std::uint32_t* runs);

// A stuck cut: `cuts[k]` is a cut of the program of the ranks mapped to k by `cut_of_rank`; the
// run takes only events inside the cuts and must end with no transition enabled.
std::optional<Result> confirm_cut(const System& model, const Programs& programs,
                                  const std::vector<std::vector<bool>>& cuts,
                                  const std::vector<std::uint32_t>& cut_of_rank,
                                  const Budget& budget, std::uint32_t* runs);

}  // namespace ordo::checker::symbolic
